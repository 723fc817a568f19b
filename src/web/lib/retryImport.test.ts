import { describe, expect, it } from 'vitest';
import { retryImport } from './retryImport';

describe('retryImport', () => {
  it('given a load that fails twice then succeeds, when retried, then it resolves with the module', async () => {
    let calls = 0;
    const load = () => {
      calls += 1;
      return calls < 3
        ? Promise.reject(new TypeError('Failed to fetch dynamically imported module'))
        : Promise.resolve('module');
    };
    await expect(retryImport(load, 5, 1)).resolves.toBe('module');
    expect(calls).toBe(3);
  });

  it('given a load that always fails, when the attempts run out, then it rejects with the last error', async () => {
    let calls = 0;
    const load = () => {
      calls += 1;
      return Promise.reject(new TypeError(`failure ${calls}`));
    };
    await expect(retryImport(load, 3, 1)).rejects.toThrow('failure 3');
    expect(calls).toBe(3);
  });
});
