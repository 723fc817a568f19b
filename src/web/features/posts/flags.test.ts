import { describe, expect, it } from 'vitest';
import { hasFlag, withCreatePost, withoutCreatePost } from './flags';

describe('the posts address flags (social §2)', () => {
  it('removes createpost=open and keeps the rest of the query', () => {
    expect(withoutCreatePost('/u/olivia', '?pagenumber=2&createpost=open&pagesize=12')).toBe(
      '/u/olivia?pagenumber=2&pagesize=12',
    );
    expect(withoutCreatePost('/maps', '?CreatePost=open')).toBe('/maps');
  });

  it('adds the flag, and reads both flags as the spec writes them', () => {
    expect(withCreatePost('/b/p1', '')).toBe('/b/p1?createpost=open');
    expect(hasFlag('?createpost=OPEN', 'createpost')).toBe(true);
    expect(hasFlag('?createpost=1', 'createpost')).toBe(false);
    expect(hasFlag('?posts=1', 'posts')).toBe(true);
    expect(hasFlag('?posts=true', 'posts')).toBe(false);
  });
});
