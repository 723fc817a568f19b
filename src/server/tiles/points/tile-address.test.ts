import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import { LAYER_GROUPS } from '../../../shared/map/contract';
import { parseLayers, parseTileAddress } from './tile-address';

function failure(run: () => unknown): { code: number; status: number; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, status: error.status, message: error.message };
    throw error;
  }
  throw new Error('did not fail');
}

describe('parseTileAddress', () => {
  it('reads z/x/y.mvt', () => {
    expect(parseTileAddress('0', '0', '0.mvt')).toEqual({ z: 0, x: 0, y: 0 });
    expect(parseTileAddress('20', String(2 ** 20 - 1), `${2 ** 20 - 1}.mvt`)).toEqual({
      z: 20,
      x: 2 ** 20 - 1,
      y: 2 ** 20 - 1,
    });
  });

  it('answers 404 for zooms the map never asks for', () => {
    expect(failure(() => parseTileAddress('21', '0', '0.mvt'))).toMatchObject({ status: 404, code: 4001 });
    expect(failure(() => parseTileAddress('-1', '0', '0.mvt'))).toMatchObject({ status: 404, code: 4001 });
  });

  it('answers 400 naming the reason for addresses that cannot be tiles', () => {
    expect(failure(() => parseTileAddress('3', '8', '0.mvt')).message).toBe(
      'Bad tile address: x 8 is outside 0..7 at zoom 3.',
    );
    expect(failure(() => parseTileAddress('3', '0', '-1.mvt')).message).toMatch(/y -1 is outside/);
    expect(failure(() => parseTileAddress('z', '0', '0.mvt')).message).toMatch(/zoom "z" is not an integer/);
    expect(failure(() => parseTileAddress('3', '0x1', '0.mvt')).message).toMatch(/x "0x1"/);
    expect(failure(() => parseTileAddress('3', '1', '1e0.mvt')).message).toMatch(/y "1e0"/);
    expect(failure(() => parseTileAddress('3', '1', '1.pbf')).message).toMatch(/end in \.mvt/);
    expect(failure(() => parseTileAddress('3', '1', '1.pbf')).status).toBe(400);
  });
});

describe('parseLayers', () => {
  it('defaults to every group and keeps contract order', () => {
    expect(parseLayers(undefined)).toEqual([...LAYER_GROUPS]);
    expect(parseLayers('')).toEqual([...LAYER_GROUPS]);
    expect(parseLayers('event, business,business')).toEqual(['business', 'event']);
  });

  it('names an unknown group', () => {
    expect(failure(() => parseLayers('business,shops'))).toMatchObject({ status: 400, code: 4003 });
  });
});
