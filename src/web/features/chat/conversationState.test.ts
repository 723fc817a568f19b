import { describe, expect, it } from 'vitest';
import type { ChatLine } from '../../../shared/api/chat';
import { failLine, lastStoredId, mergeLines, newestOtherId, pendingLine } from './conversationState';

const line = (id: number, clientId: string, side: 'visitor' | 'point' = 'visitor'): ChatLine => ({
  id,
  point_id: 'p1',
  visitor_id: 'u1',
  sender_id: side === 'visitor' ? 'u1' : 'o1',
  from: side === 'visitor' ? 'uma' : 'olivia',
  side,
  client_id: clientId,
  text: `line ${id}`,
  at: 1000 + id,
});

describe('a conversation as shown', () => {
  it('shows a line once whether it comes as the reply, the broadcast or a catch-up', () => {
    let shown = mergeLines([], [line(1, 'a'), line(2, 'b')]);
    shown = [...shown, pendingLine('c', 'hello', 'visitor', 'uma')];
    // the broadcast, then the reply, then a catch-up overlapping both
    shown = mergeLines(shown, [line(3, 'c')]);
    shown = mergeLines(shown, [line(3, 'c')]);
    shown = mergeLines(shown, [line(2, 'b'), line(3, 'c'), line(4, 'd', 'point')]);
    expect(shown.map((each) => [each.id, each.client_id, each.state])).toEqual([
      [1, 'a', 'stored'],
      [2, 'b', 'stored'],
      [3, 'c', 'stored'],
      [4, 'd', 'stored'],
    ]);
  });

  it('keeps lines not acknowledged yet at the end, in the order they were written', () => {
    let shown = mergeLines([], [line(5, 'e')]);
    shown = [...shown, pendingLine('x', 'one', 'visitor', 'uma'), pendingLine('y', 'two', 'visitor', 'uma')];
    shown = mergeLines(shown, [line(4, 'd', 'point')]);
    expect(shown.map((each) => each.client_id)).toEqual(['d', 'e', 'x', 'y']);
    expect(lastStoredId(shown)).toBe(5);
    expect(newestOtherId(shown, 'visitor')).toBe(4);
    expect(newestOtherId(shown, 'point')).toBe(5);
  });

  it('marks a refused line failed with its reason, leaving stored lines alone', () => {
    const shown = failLine(
      [...mergeLines([], [line(1, 'a')]), pendingLine('z', 'x', 'visitor', 'uma')],
      'z',
      'too fast',
    );
    expect(shown.map((each) => each.state)).toEqual(['stored', 'failed']);
    expect(shown[1]?.error).toBe('too fast');
  });
});
