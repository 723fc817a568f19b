import { PING_PATH } from '../../../shared/api/wire';
import { API_ERROR_CODES, ApiError, apiPost } from '../../lib/api';
import { lazySchema } from '../../lib/schemas';
import type { PingResult } from './connection';

/** The detail when the request got no answer at all (server stopped, network gone, DNS...). */
export const NETWORK_DETAIL = 'No answer from the server (network error).';

/**
 * One `POST /v1/webonly/ping` with the empty JSON body (§7), through the API client: the answer is
 * checked against its contract, a refusal becomes the server's own text made safe (§8's helper:
 * 'The store is not answering.', or 'Status [502]. Network/Server error.' from a proxy), which the
 * banner shows as its detail. An abort (the pinger's time-out) rejects.
 */
export async function pingServer(signal: AbortSignal): Promise<PingResult> {
  try {
    // `read`: the ping writes nothing, so the app must not refresh its answers after it
    await apiPost(PING_PATH, lazySchema('pingAnswerSchema'), {}, { signal, read: true });
    return { ok: true };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { ok: false, detail: error.code === API_ERROR_CODES.network ? NETWORK_DETAIL : error.message };
  }
}
