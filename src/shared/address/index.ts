export * from './types';
export {
  COORDINATE_DECIMALS,
  MAX_DATA_LENGTH,
  MAX_KEYWORDS_LENGTH,
  MAX_PAGE_NUMBER,
  ZOOM_DECIMALS,
  decodeData,
  encodeData,
  isEmptyData,
  normaliseData,
  parseLocation,
  roundTo,
} from './data';
export type { DataResult } from './data';
export {
  MAX_ADDRESS_LENGTH,
  MAX_RETURN_PATH_LENGTH,
  RESERVED_FIRST_SEGMENTS,
  buildAddress,
  canonicalPointPath,
  fullscreenPath,
  isSafeReturnPath,
  isValidCityForUrl,
  needsPrefixCorrection,
  parseAddress,
} from './routes';
export * from './links';
export {
  MAP_LOCATION_COOKIE,
  buildMapHash,
  decodeLocationCookie,
  encodeLocationCookie,
  parseMapHash,
} from './location';
