import { describe, expect, it } from 'vitest';
import { notificationText } from './notifications';

describe('notificationText', () => {
  it('names one, two, or the first and how many others', () => {
    expect(notificationText('like', 'P', ['Ana'], 1)).toBe('Ana liked your post.');
    expect(notificationText('like', 'P', ['Ana', 'Ben'], 2)).toBe('Ana and Ben liked your post.');
    expect(notificationText('like', 'X', ['Ana', 'Ben', 'Cai'], 4)).toBe(
      'Ana and 3 others liked your point.',
    );
    expect(notificationText('follow', 'U', ['Ana', 'Ben'], 7)).toBe('Ana and 6 others followed you.');
  });

  it('says what was done to what', () => {
    expect(notificationText('comment', 'P', ['Ana'], 1)).toBe('Ana commented on your post.');
    expect(notificationText('review', 'X', ['Ana'], 1)).toBe('Ana reviewed your point.');
    expect(notificationText('review_reply', 'R', ['Ana'], 1)).toBe('Ana answered your review.');
    expect(notificationText('like', 'C', [], 1)).toBe('Someone liked your comment.');
  });
});
