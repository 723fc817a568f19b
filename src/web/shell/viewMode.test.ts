import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../shared/address';
import {
  STATE_CLASSES,
  VIEW_MODES,
  applyStateClasses,
  readViewModeCookie,
  viewModeCookie,
  viewModeNames,
  viewStateFor,
} from './viewMode';

const viewOf = (path: string, suggestionsOpen = false) => {
  const state = viewStateFor(parseAddress(path).route, { suggestionsOpen });
  return { modes: viewModeNames(state.flags), classes: state.classes };
};

describe('view modes and body classes of each screen (§2)', () => {
  it.each([
    ['/', ['landing'], ['landing']],
    ['/home', ['landing'], ['landing']],
    ['/search/bakery/data=%7B%7D', ['landing', 'search'], ['landing', 'search']],
    ['/maps', ['map'], []],
    ['/maps/bakery/data=%7B%7D', ['map', 'search'], ['search']],
    [
      '/maps/bakery/data=%7B%22xpoint%22%3A%7B%22id%22%3A%22p1%22%7D%7D',
      ['map', 'xpoint', 'search'],
      ['search', 'point'],
    ],
    ['/maps/data=%7B%22event%22%3A%7B%22id%22%3A%22e1%22%7D%7D', ['map', 'event'], ['event']],
    ['/b/p1', ['map', 'xpoint'], ['point']],
    ['/f/p1', ['xpoint', 'fullscreen'], ['fullscreen']],
    ['/p1', ['xpoint', 'fullscreen'], ['fullscreen']],
    ['/cluster', ['map', 'cluster'], ['cluster']],
    ['/momcluster', ['map', 'cluster'], ['momcluster']],
    ['/new', ['addnew'], ['addnew', 'step-1']],
    ['/new/rental', ['addnew'], ['addnew', 'step-2']],
    ['/MeOnMap/Index', ['map'], []],
  ])('%s is %j with classes %j', (path, modes, classes) => {
    expect(viewOf(path)).toEqual({ modes, classes });
  });

  it('adds state-suggestions while the suggestions list is open', () => {
    expect(viewOf('/maps', true).classes).toEqual(['state-suggestions']);
  });

  it('keeps a bad data segment on the map with no panel state', () => {
    expect(viewOf('/maps/x/data=%7Bbroken')).toEqual({ modes: ['map'], classes: [] });
  });
});

describe('applyStateClasses', () => {
  it('clears the previous state and keeps classes it does not manage', () => {
    const body = { classList: new Set<string>(['point', 'keyboard-user']) };
    const classList = {
      toggle: (name: string, on: boolean) => (on ? body.classList.add(name) : body.classList.delete(name)),
    } as unknown as DOMTokenList;
    applyStateClasses({ classList }, ['addnew', 'step-2']);
    expect([...body.classList].sort()).toEqual(['addnew', 'keyboard-user', 'step-2']);
    applyStateClasses({ classList }, []);
    expect([...body.classList]).toEqual(['keyboard-user']);
  });

  it('manages every class a view can set', () => {
    for (const path of ['/', '/b/p1', '/f/p1', '/cluster', '/momcluster', '/new/rental/cabin']) {
      for (const name of viewStateFor(parseAddress(path).route).classes)
        expect(STATE_CLASSES).toContain(name);
    }
  });
});

describe('the view-mode cookie', () => {
  it('round-trips the flags', () => {
    const flags = VIEW_MODES.map | VIEW_MODES.search | VIEW_MODES.xpoint;
    const cookie = viewModeCookie(flags);
    expect(cookie).toMatch(/^viewmode=13; Path=\/;/);
    expect(readViewModeCookie(`a=1; ${cookie.split(';')[0]}; b=2`)).toBe(flags);
  });

  it('ignores values that are not a flag set', () => {
    expect(readViewModeCookie('viewmode=0')).toBeNull();
    expect(readViewModeCookie('viewmode=256')).toBeNull();
    expect(readViewModeCookie('viewmode=abc')).toBeNull();
    expect(readViewModeCookie('xviewmode=4')).toBeNull();
    expect(readViewModeCookie('')).toBeNull();
  });
});
