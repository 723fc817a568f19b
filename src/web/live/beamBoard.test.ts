import { describe, expect, test } from 'vitest';
import { BeamFlag } from '../../shared/domain/beams';
import { BeamBoard, CHAT_SHOW_MS, FADE_MS, GLOBAL_BEAM_SHOW_MS, dominantKind, fadeAt } from './beamBoard';

const target = { route: '/x/b_1' };

describe('beam board', () => {
  test('flags from several sources combine per point', () => {
    const board = new BeamBoard();
    board.add('dynamic', { id: 'b_1', lng: 1, lat: 2, flags: BeamFlag.hot, target });
    board.add('chat', { id: 'b_1', lng: 1, lat: 2, flags: BeamFlag.chat, target, expiresAt: 5_000 });
    board.add('dynamic', { id: 'b_1', lng: 1, lat: 2, flags: BeamFlag.currentEvent, target });
    expect(board.flagsOf('b_1', 0)).toBe(BeamFlag.hot | BeamFlag.chat | BeamFlag.currentEvent);
    expect(board.size).toBe(1);
    const [beam] = board.drawn(0);
    expect(beam?.kind).toBe('current');
  });

  test('adding a flag moves the marker when its coordinates changed', () => {
    const board = new BeamBoard();
    board.add('dynamic', { id: 'b_1', lng: 1, lat: 2, flags: BeamFlag.hot, target });
    board.add('globalbeam', { id: 'b_1', lng: 3, lat: 4, flags: BeamFlag.incident, target, expiresAt: 10 });
    expect(board.drawn(0)).toMatchObject([{ id: 'b_1', lng: 3, lat: 4, kind: 'incident' }]);
  });

  test('clearing the last flag removes the point; force removes it outright', () => {
    const board = new BeamBoard();
    board.add('dynamic', { id: 'b_1', lng: 1, lat: 2, flags: BeamFlag.hot | BeamFlag.chat, target });
    board.clear('b_1', 'dynamic', BeamFlag.hot);
    expect(board.flagsOf('b_1', 0)).toBe(BeamFlag.chat);
    board.clear('b_1', 'dynamic', BeamFlag.chat);
    expect(board.has('b_1')).toBe(false);
    board.add('dynamic', { id: 'b_2', lng: 1, lat: 2, flags: BeamFlag.hot | BeamFlag.chat, target });
    board.clear('b_2', 'dynamic', 0, true);
    expect(board.has('b_2')).toBe(false);
  });

  test('a source refresh replaces only that source', () => {
    const board = new BeamBoard();
    board.add('dynamic', { id: 'b_1', lng: 1, lat: 2, flags: BeamFlag.hot, target });
    board.add('chat', { id: 'b_1', lng: 1, lat: 2, flags: BeamFlag.chat, target, expiresAt: 9_000 });
    board.add('dynamic', { id: 'b_2', lng: 1, lat: 2, flags: BeamFlag.hot, target });
    board.replaceSource('dynamic', [{ id: 'b_3', lng: 5, lat: 6, flags: BeamFlag.upcomingEvent, target }]);
    expect(board.flagsOf('b_1', 0)).toBe(BeamFlag.chat);
    expect(board.has('b_2')).toBe(false);
    expect(board.flagsOf('b_3', 0)).toBe(BeamFlag.upcomingEvent);
  });

  test('global beams show 4 s and chat beams 30 s, fading over the last second', () => {
    const board = new BeamBoard();
    const now = 1_000_000;
    board.add('globalbeam', {
      id: 'b_1',
      lng: 0,
      lat: 0,
      flags: BeamFlag.hot,
      target,
      expiresAt: now + GLOBAL_BEAM_SHOW_MS,
    });
    board.add('chat', {
      id: 'b_2',
      lng: 0,
      lat: 0,
      flags: BeamFlag.chat,
      target,
      expiresAt: now + CHAT_SHOW_MS,
    });
    expect(board.drawn(now + 2_000).find((b) => b.id === 'b_1')?.opacity).toBe(1);
    const fading = board.drawn(now + GLOBAL_BEAM_SHOW_MS - FADE_MS / 2).find((b) => b.id === 'b_1');
    expect(fading?.opacity).toBeCloseTo(0.5);
    expect(board.expire(now + GLOBAL_BEAM_SHOW_MS)).toBe(true);
    expect(board.has('b_1')).toBe(false);
    expect(board.has('b_2')).toBe(true);
    expect(board.nextExpiry(now + GLOBAL_BEAM_SHOW_MS)).toBe(now + CHAT_SHOW_MS);
    board.expire(now + CHAT_SHOW_MS);
    expect(board.size).toBe(0);
  });

  test('beams of the moment pulse; steady dynamic beams do not', () => {
    const board = new BeamBoard();
    board.add('dynamic', { id: 'b_1', lng: 0, lat: 0, flags: BeamFlag.hot, target });
    expect(board.drawn(0)[0]?.pulsing).toBe(false);
    board.add('chat', { id: 'b_1', lng: 0, lat: 0, flags: BeamFlag.chat, target, expiresAt: 100 });
    expect(board.drawn(0)[0]?.pulsing).toBe(true);
    expect(board.drawn(100)[0]).toMatchObject({ pulsing: false, opacity: 1, kind: 'hot' });
  });

  test('a repeated beam extends the time shown, and an expired flag no longer counts', () => {
    const board = new BeamBoard();
    board.add('globalbeam', { id: 'b_1', lng: 0, lat: 0, flags: BeamFlag.hot, target, expiresAt: 4_000 });
    board.add('globalbeam', { id: 'b_1', lng: 0, lat: 0, flags: BeamFlag.hot, target, expiresAt: 6_000 });
    expect(board.flagsOf('b_1', 5_000)).toBe(BeamFlag.hot);
    expect(board.flagsOf('b_1', 6_000)).toBe(0);
  });

  test('kinds by urgency and the fade curve', () => {
    expect(dominantKind(BeamFlag.hot | BeamFlag.incident)).toBe('incident');
    expect(dominantKind(BeamFlag.chat)).toBe('chat');
    expect(dominantKind(BeamFlag.urgentHelpRequest | BeamFlag.helpRequest)).toBe('urgent');
    expect(dominantKind(0)).toBeNull();
    expect(fadeAt(Infinity, 0)).toBe(1);
    expect(fadeAt(100, 200)).toBe(0);
  });
});
