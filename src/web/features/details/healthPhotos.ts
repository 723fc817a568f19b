import { apiPost } from '../../lib/api';
import { healthPhotosSchema } from './schemas';

/** The verified health photos of a point, in their order (POST /v1/webonly/xpointdetails/healthphoto). */
export async function loadHealthPhotos(pointId: string, signal: AbortSignal): Promise<string[]> {
  const answer = await apiPost(
    '/v1/webonly/xpointdetails/healthphoto',
    healthPhotosSchema,
    { id: pointId },
    { signal },
  );
  return Object.entries(answer.photos)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, photo]) => photo.url);
}
