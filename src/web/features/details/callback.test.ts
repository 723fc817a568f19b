import { describe, expect, it } from 'vitest';
import { callbackAlert, hasCallbackUser, networkFailureText } from './callback';

describe('callback modal rules', () => {
  it('alerts when the service name or the point id is missing (§8)', () => {
    expect(callbackAlert({ toUserId: 'u1', serviceName: 'Dog walking', xpointId: 'abc' })).toBeNull();
    expect(callbackAlert({ toUserId: 'u1', serviceName: ' ', xpointId: 'abc' })).toBe(
      'Service Name is not defined',
    );
    expect(callbackAlert({ toUserId: 'u1', serviceName: 'Dog walking', xpointId: null })).toBe(
      'Service xpointId is not defined',
    );
  });

  it('needs a target user id, else the error panel (§5)', () => {
    expect(hasCallbackUser({ toUserId: 'u1', serviceName: 'x', xpointId: 'y' })).toBe(true);
    expect(hasCallbackUser({ toUserId: null, serviceName: 'x', xpointId: 'y' })).toBe(false);
    expect(hasCallbackUser({ toUserId: '', serviceName: 'x', xpointId: 'y' })).toBe(false);
  });

  it('says "Could not send email." and the cause on a network failure', () => {
    expect(networkFailureText('Internet Connection lost or server is not responding!')).toBe(
      'Could not send email. Internet Connection lost or server is not responding!',
    );
    expect(networkFailureText('')).toBe('Could not send email.');
  });
});
