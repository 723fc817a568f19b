import { storeImage, type StoredMedia } from '../../media/process';
import type { MediaPlace } from '../../media/store';
import { withImage, type MediaSource } from '../points/media';

export const AVATAR_SIZE_PX = 256;
/** An avatar as a JSON body's data URL, or a multipart file part not yet read. */
export type AvatarSource = MediaSource;

/** A stored avatar: always a 256×256 WebP. */
export interface StoredImage extends StoredMedia {
  width: number;
  height: number;
}

/**
 * Stores an avatar (social §5 and §9: a JPEG, PNG, GIF or WebP picture up to 10485760 bytes): a base64
 * data URL from a JSON body (or bare base64, as the crop tool produces), or a multipart file part,
 * streamed to a temporary file and refused the moment it passes 10 MB. Checked by its content, cropped
 * to a 256×256 WebP and stored in the media store, named by its sha256.
 */
export async function storeAvatar(image: AvatarSource, media: MediaPlace): Promise<StoredImage> {
  const stored = await withImage(image, media, (input) =>
    storeImage(input, { width: AVATAR_SIZE_PX, height: AVATAR_SIZE_PX, fit: 'cover' }, media),
  );
  return { ...stored, width: AVATAR_SIZE_PX, height: AVATAR_SIZE_PX };
}
