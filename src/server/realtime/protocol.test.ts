import { describe, expect, it } from 'vitest';
import { MAX_FRAME_BYTES, encodeReply, framePrefix, joinFrame, parseFrame, sharedSuffix } from './protocol';

describe('parseFrame', () => {
  it('reads a v2 frame, refs as strings or null', () => {
    expect(parseFrame('["1","2","device:a","phx_join",{"x":1}]')).toEqual({
      ok: true,
      frame: { joinRef: '1', ref: '2', topic: 'device:a', event: 'phx_join', payload: { x: 1 } },
    });
    expect(parseFrame('[null,3,"phoenix","heartbeat",{}]')).toMatchObject({
      ok: true,
      frame: { joinRef: null, ref: '3' },
    });
  });

  it.each([
    ['not JSON', '{'],
    ['an object', '{"topic":"a"}'],
    ['four elements', '["1","1","a","b"]'],
    ['a number topic', '["1","1",5,"b",{}]'],
    ['an empty topic', '["1","1","","b",{}]'],
    ['an empty event', '["1","1","a","",{}]'],
    ['an array payload', '["1","1","a","b",[]]'],
    ['a null payload', '["1","1","a","b",null]'],
    ['an object ref', '[{},"1","a","b",{}]'],
    ['a fractional ref', '[1.5,"1","a","b",{}]'],
  ])('refuses %s', (_name, text) => {
    expect(parseFrame(text).ok).toBe(false);
  });

  it('refuses a frame over the size limit without parsing it', () => {
    const big = `["1","1","a","b",{"x":"${'y'.repeat(MAX_FRAME_BYTES)}"}]`;
    expect(parseFrame(big)).toEqual({ ok: false, reason: 'frame too large' });
  });
});

describe('encoding', () => {
  it('replies on the frame’s refs and topic', () => {
    expect(
      JSON.parse(encodeReply({ joinRef: '1', ref: '7', topic: 't' }, 'error', { reason: 'unmatched topic' })),
    ).toEqual(['1', '7', 't', 'phx_reply', { status: 'error', response: { reason: 'unmatched topic' } }]);
  });

  it('joins a per-topic prefix and a shared suffix into one valid frame', () => {
    const suffix = sharedSuffix('iq', { id: 'u', type: 'set', map_activity: { mag: 2 } });
    const frame = joinFrame(framePrefix('device:"quoted"'), suffix);
    expect(JSON.parse(frame.toString('utf8'))).toEqual([
      null,
      null,
      'device:"quoted"',
      'iq',
      { id: 'u', type: 'set', map_activity: { mag: 2 } },
    ]);
  });
});
