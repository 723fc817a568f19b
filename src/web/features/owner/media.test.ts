import { describe, expect, test } from 'vitest';
import { ApiError } from '../../lib/api';
import { isConflict } from './editApi';
import {
  MAX_IMAGE_BYTES,
  MAX_VIDEO_BYTES,
  acceptFor,
  checkPickedFile,
  screenshotRoom,
  healthPhotoRoom,
  sortedScreenshots,
  uploadErrorMessage,
} from './media';

describe('media checks before sending', () => {
  test('given a picture within 10 MB, then it goes to the server', () => {
    expect(
      checkPickedFile({ name: 'front.jpg', type: 'image/jpeg', size: 2_000_000 }, 'cover_image'),
    ).toBeNull();
    // a type the browser cannot name is left to the server, which reads the content
    expect(checkPickedFile({ name: 'front', type: '', size: 2_000 }, 'logo')).toBeNull();
  });

  test('given a picture over 10 MB, then it is refused with the server’s wording', () => {
    expect(
      checkPickedFile({ name: 'huge.png', type: 'image/png', size: MAX_IMAGE_BYTES + 1 }, 'screenshot'),
    ).toBe('Screenshot: "huge.png" is too large (10.0 Mb). Invalid image size. Max allowed 10 MB');
  });

  test('given a video where a picture goes, or a picture where the video goes, then the slot says what it takes', () => {
    expect(checkPickedFile({ name: 'clip.mp4', type: 'video/mp4', size: 10 }, 'logo')).toBe(
      'Logo: "clip.mp4" is not a picture. Choose a JPEG, PNG, GIF or WebP image.',
    );
    expect(checkPickedFile({ name: 'a.png', type: 'image/png', size: 10 }, 'cover_video')).toBe(
      'Cover video: "a.png" is not a video. Choose an MP4, WebM, QuickTime or Ogg video.',
    );
    expect(
      checkPickedFile({ name: 'big.webm', type: 'video/webm', size: MAX_VIDEO_BYTES + 1 }, 'cover_video'),
    ).toMatch(/Max allowed 100 MB$/);
    expect(checkPickedFile({ name: 'none.jpg', type: 'image/jpeg', size: 0 }, 'cover_image')).toBe(
      'Cover image: "none.jpg" is empty.',
    );
  });

  test('given a slot, then the file picker offers its types', () => {
    expect(acceptFor('cover_video')).toBe('video/mp4,video/quicktime,video/webm,video/ogg');
    expect(acceptFor('screenshot')).toBe('image/jpeg,image/png,image/gif,image/webp');
  });

  test("the file's size reads as social §9 writes sizes, the limit as §5's message words it", () => {
    expect(
      checkPickedFile({ name: 'big.webm', type: 'video/webm', size: 150.25 * 1024 * 1024 }, 'cover_video'),
    ).toBe('Cover video: "big.webm" is too large (150.3 Mb). Invalid video file size. Max allowed 100 MB');
  });

  test('screenshots sort by position and have room for 14', () => {
    expect(sortedScreenshots([{ position: 3 }, { position: 1 }])).toEqual([{ position: 1 }, { position: 3 }]);
    expect(screenshotRoom(12)).toBe(2);
    expect(screenshotRoom(15)).toBe(0);
    expect(healthPhotoRoom(14)).toBe(6);
    expect(healthPhotoRoom(20)).toBe(0);
  });
});

describe('what the server refuses', () => {
  test('given a text file named .jpg, then the server’s message is shown under the slot’s name', () => {
    const refused = new ApiError(2009, 'image: must be a JPEG, PNG, GIF or WebP picture.', 400);
    expect(uploadErrorMessage(refused, 'cover_image', 'notes.jpg')).toBe(
      'Cover image: "notes.jpg" was not accepted. image: must be a JPEG, PNG, GIF or WebP picture.',
    );
  });

  test('given a refusal that is not about the file, then its message is shown as it is', () => {
    expect(
      uploadErrorMessage(new ApiError(1011, 'You are not allowed to do this.', 403), 'logo', 'a.png'),
    ).toBe('You are not allowed to do this.');
  });

  test('given a stale version, then it is a conflict, and nothing else is', () => {
    expect(
      isConflict(new ApiError(1012, 'This was changed by someone else; reload and try again.', 409)),
    ).toBe(true);
    expect(isConflict(new ApiError(7012, 'opening_hours: bad', 400))).toBe(false);
    expect(isConflict(new Error('network'))).toBe(false);
  });
});
