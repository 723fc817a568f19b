import { describe, expect, it } from 'vitest';
import {
  contactRoleText,
  describeText,
  displayAddress,
  emailView,
  formatDegrees,
  linkView,
  parseLatLonAddress,
  phoneView,
} from './text';

describe('description toggle', () => {
  it('has no toggle up to 250 characters and one above', () => {
    expect(describeText('a'.repeat(250))).toEqual({
      full: 'a'.repeat(250),
      preview: 'a'.repeat(250),
      collapsible: false,
    });
    const long = describeText('b'.repeat(251));
    expect(long.collapsible).toBe(true);
    expect(long.preview).toBe(`${'b'.repeat(250)}…`);
    expect(long.full).toHaveLength(251);
  });
  it('counts characters, not UTF-16 units, and handles null', () => {
    expect(describeText('😀'.repeat(250)).collapsible).toBe(false);
    expect(describeText('😀'.repeat(251)).preview).toBe(`${'😀'.repeat(250)}…`);
    expect(describeText(null)).toEqual({ full: '', preview: '', collapsible: false });
  });
});

describe('lat,lon addresses', () => {
  it('shows two signed decimals as degrees', () => {
    expect(displayAddress('40.712778,-74.006111')).toBe('40°42′46″N 74°00′22″W');
    expect(displayAddress(' -33.8688 , 151.2093 ')).toBe('33°52′08″S 151°12′33″E');
    expect(formatDegrees(0, 0)).toBe('0°00′00″N 0°00′00″E');
  });
  it('carries rounded seconds into minutes and degrees', () => {
    expect(formatDegrees(10.9999999, -20.0166666)).toBe('11°00′00″N 20°01′00″W');
  });
  it('leaves street addresses and out-of-range pairs as written', () => {
    expect(displayAddress('12 Main St, Springfield')).toBe('12 Main St, Springfield');
    expect(parseLatLonAddress('91.0,10.0')).toBeNull();
    expect(parseLatLonAddress('10.0,181')).toBeNull();
    expect(parseLatLonAddress('1,2,3')).toBeNull();
    expect(displayAddress(null)).toBe('');
    expect(parseLatLonAddress('+45.5,-0.25')).toEqual({ lat: 45.5, lon: -0.25 });
  });
});

describe('links', () => {
  it('are clickable for http:// and https://', () => {
    expect(linkView('http://shop.example/a')).toEqual({
      text: 'http://shop.example/a',
      href: 'http://shop.example/a',
    });
    expect(linkView('HTTPS://fb.example/shop').href).toBe('HTTPS://fb.example/shop');
  });
  it('are clickable when they begin with our host, bare or as an origin', () => {
    expect(linkView('xpoint.example/u/olivia', 'xpoint.example').href).toBe(
      'https://xpoint.example/u/olivia',
    );
    expect(linkView('XPoint.example', 'https://xpoint.example/').href).toBe('https://XPoint.example');
    expect(linkView('xpoint.example.evil.test/x', 'xpoint.example').href).toBeNull();
  });
  it('are plain text otherwise', () => {
    for (const value of [
      'www.shop.example',
      'javascript:alert(1)',
      'ftp://files.example',
      'call us',
      'http://',
    ])
      expect(linkView(value, 'xpoint.example')).toEqual({ text: value, href: null });
    expect(linkView(null)).toEqual({ text: '', href: null });
  });
  it('email and phone become mailto: and tel: only when they look like one', () => {
    expect(emailView('info@shop.example').href).toBe('mailto:info@shop.example');
    expect(emailView('not an email').href).toBeNull();
    expect(phoneView('+1 (212) 555-0100').href).toBe('tel:+12125550100');
    expect(phoneView('ask at the desk').href).toBeNull();
  });
});

describe('contact roles', () => {
  it('names the four role codes, CUST with its own text', () => {
    expect(contactRoleText('ADMN', null)).toBe('Administrator');
    expect(contactRoleText('_CEO', 'ignored')).toBe('CEO');
    expect(contactRoleText('OWNR', null)).toBe('Business owner');
    expect(contactRoleText('CUST', 'Head chef')).toBe('Head chef');
    expect(contactRoleText('CUST', '  ')).toBe('Custom role');
  });
});
