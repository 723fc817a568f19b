import { describe, expect, it } from 'vitest';
import { StoreProbe } from './probe';

function fakeStore(answers: (boolean | Error)[]) {
  const store = {
    calls: 0,
    release: () => {},
    ping(): Promise<boolean> {
      const answer = answers[store.calls++] ?? true;
      return new Promise((resolve, reject) => {
        store.release = () => (answer instanceof Error ? reject(answer) : resolve(answer));
      });
    },
  };
  return store;
}

describe('StoreProbe', () => {
  it('asks the store once for pings that arrive while it is asking, and keeps the answer while fresh', async () => {
    let now = 0;
    const store = fakeStore([true, false]);
    const probe = new StoreProbe(store, 1000, () => now);
    const waiting = [probe.ok(), probe.ok(), probe.ok()];
    expect(store.calls).toBe(1);
    store.release();
    expect(await Promise.all(waiting)).toEqual([true, true, true]);
    now = 999;
    expect(await probe.ok()).toBe(true);
    expect(store.calls).toBe(1);
    now = 1000;
    const next = probe.ok();
    expect(store.calls).toBe(2);
    store.release();
    expect(await next).toBe(false);
  });

  it('counts a store that throws as not answering, and keeps that answer as long', async () => {
    let now = 0;
    const store = fakeStore([new Error('connection refused')]);
    const probe = new StoreProbe(store, 1000, () => now);
    const first = probe.ok();
    store.release();
    expect(await first).toBe(false);
    now = 500;
    expect(await probe.ok()).toBe(false);
    expect(store.calls).toBe(1);
  });
});
