import { describe, expect, it } from 'vitest';
import { pickEncoding } from './hashed-assets';

const both = {
  type: 'text/javascript',
  identity: Buffer.from('x'),
  br: Buffer.from('b'),
  gzip: Buffer.from('g'),
};

describe('pickEncoding', () => {
  it('given a browser that takes brotli and gzip, then it sends brotli', () => {
    expect(pickEncoding('gzip, deflate, br, zstd', both)).toBe('br');
  });

  it('given brotli refused with q=0, then it sends gzip', () => {
    expect(pickEncoding('br;q=0, gzip', both)).toBe('gzip');
  });

  it('given a file the build did not compress, then it sends the file as it is', () => {
    expect(pickEncoding('br, gzip', { ...both, br: null, gzip: null })).toBeNull();
  });

  it('given no Accept-Encoding, then it sends the file as it is', () => {
    expect(pickEncoding(undefined, both)).toBeNull();
  });
});
