/**
 * The error catalogue: every error the API answers with, created once with a code, an HTTP status
 * and a message. Codes are never reused; the spec's own codes keep the spec's numbers and messages.
 * On the wire an error is always `{"errorcode": <code>, "error": "<message>"}`.
 */
export const ERRORS = {
  // generic HTTP-level errors: 1xxx
  notFound: { code: 1000, status: 404, message: 'Not found.' },
  routeNotFound: { code: 1001, status: 404, message: 'There is no {method} {path} in this API.' },
  badRequest: { code: 1002, status: 400, message: 'The request could not be read: {reason}' },
  invalidField: { code: 1003, status: 400, message: '{field}: {reason}' },
  payloadTooLarge: { code: 1004, status: 413, message: 'The request is too large (at most {limit}).' },
  unsupportedMediaType: { code: 1005, status: 415, message: 'Content-Type {type} is not accepted here.' },
  methodNotAllowed: { code: 1006, status: 405, message: '{method} is not allowed on {path}.' },
  rangeNotSatisfiable: {
    code: 1007,
    status: 416,
    message: 'The range {range} is not within the file ({size} bytes).',
  },
  // framework-level refusals, answered before a route runs (src/server/http/limits.ts, client errors)
  jsonTooDeep: {
    code: 1030,
    status: 400,
    message: 'The request could not be read: the JSON body is nested deeper than {max} levels.',
  },
  uriTooLong: { code: 1031, status: 414, message: 'The address is too long (at most {limit}).' },
  headersTooLarge: {
    code: 1032,
    status: 431,
    message: 'The request headers are too large (at most {limit} with the address).',
  },
  requestTimeout: { code: 1033, status: 408, message: 'The request took too long to arrive.' },
  unauthorized: { code: 1010, status: 401, message: 'You need to sign in to do this.' },
  forbidden: { code: 1011, status: 403, message: 'You are not allowed to do this.' },
  conflict: { code: 1012, status: 409, message: 'This was changed by someone else; reload and try again.' },
  rateLimited: { code: 1020, status: 429, message: 'Too many requests; try again in {retry}.' },
  internal: { code: 1500, status: 500, message: 'Something went wrong on our side. Please try again.' },
  storeUnavailable: { code: 1503, status: 503, message: 'The store is not answering.' },
  mediaUnavailable: { code: 1506, status: 503, message: 'The media store is not answering.' },
  shuttingDown: { code: 1504, status: 503, message: 'The server is restarting; try again in a moment.' },
  webAppNotBuilt: { code: 1505, status: 503, message: 'The web app is not built yet (run `npm run build`).' },

  // accounts and permissions: 2xxx
  wrongCredentials: { code: 2001, status: 401, message: 'Wrong username/email or password.' },
  sessionInvalid: {
    code: 2002,
    status: 401,
    message: 'Your session is not valid or has expired; please sign in again.',
  },
  antiforgeryMissing: {
    code: 2003,
    status: 403,
    message: 'The anti-forgery token is missing or wrong; reload the page and try again.',
  },
  usernameTaken: { code: 2004, status: 409, message: 'username: "{username}" is already taken.' },
  emailTaken: {
    code: 2005,
    status: 409,
    message: 'email: an account with this email address already exists.',
  },
  accountLocked: {
    code: 2006,
    status: 429,
    message: 'Too many failed sign-ins for this account; try again in {retry}.',
  },
  wrongCurrentPassword: {
    code: 2007,
    status: 400,
    message: 'currentPassword: the current password is wrong.',
  },
  invalidImageSize: { code: 2008, status: 413, message: 'Invalid image size. Max allowed {size}' },
  invalidImage: {
    code: 2009,
    status: 400,
    message: 'image: must be a JPEG, PNG, GIF or WebP picture.',
  },
  pointNotFound: { code: 2010, status: 404, message: 'There is no point with id {id}.' },
  eventNotFound: { code: 2011, status: 404, message: 'There is no event with id {id}.' },
  invalidEventId: { code: 2012, status: 400, message: 'Param [eventId] is invalid!' },
  passwordTooGuessable: {
    code: 2013,
    status: 400,
    message:
      '{field}: is too easy to guess. Avoid common passwords and your own name, username or email; a few unrelated words make a strong password.',
  },

  // point tiles and clusters: 4xxx
  pointTileZoomOutOfRange: {
    code: 4001,
    status: 404,
    message: 'There are no tiles at zoom {zoom} (zooms are {min} to {max}).',
  },
  pointTileBadAddress: { code: 4002, status: 400, message: 'Bad tile address: {reason}' },
  pointLayerGroupUnknown: {
    code: 4003,
    status: 400,
    message: 'layers: {name} is not a layer group (use {groups}).',
  },
  clusterNotFound: {
    code: 4004,
    status: 404,
    message: 'There is no cluster {clusterId} in layer group {group}.',
  },
  clusterPagingInvalid: { code: 4005, status: 400, message: '{field}: {reason}' },

  // map tiles, glyphs, sprite and style: 3xxx
  mapAssetsMissing: {
    code: 3001,
    status: 503,
    message: 'The map assets are not built yet (run `npm run build:map`).',
  },
  tileZoomOutOfRange: {
    code: 3002,
    status: 404,
    message: 'There are no {source} tiles at zoom {z} (zooms {min} to {max}).',
  },
  tileBadCoordinates: { code: 3003, status: 400, message: 'Bad tile address: {reason}' },
  unknownLayerGroup: {
    code: 3004,
    status: 400,
    message: 'layers: "{group}" is not a layer group (use all, or some of {groups}).',
  },
  badImageFormat: { code: 3005, status: 400, message: 'imgformat: must be webp or png (got "{value}").' },
  badGlyphRequest: { code: 3006, status: 400, message: 'Bad glyph request: {reason}' },
  badHostHeader: { code: 3007, status: 400, message: 'The Host header is not a valid host name.' },
  badStyleVersion: {
    code: 3008,
    status: 400,
    message: 'v: at most 64 letters, digits, dots, underscores or hyphens.',
  },

  // point and event writes: 7xxx
  possibleDuplicate: {
    code: 7001,
    status: 409,
    message:
      'A similar place is already on the map within 100 m: {titles}. Open it, or confirm that yours is a different place.',
  },
  unknownSupertype: {
    code: 7002,
    status: 400,
    message: 'supertype: "{value}" is not something one can add (use {allowed}).',
  },
  unknownType: { code: 7003, status: 400, message: 'type: "{value}" is not a type of {supertype}.' },
  fieldNotForSupertype: {
    code: 7004,
    status: 400,
    message: '{field}: only {supertypes} points have this field.',
  },
  supertypeChange: {
    code: 7005,
    status: 400,
    message: 'supertype: a point keeps its supertype; add a new point instead.',
  },
  endBeforeStart: { code: 7010, status: 400, message: '{field}: must be after {after}.' },
  dateBefore1901: { code: 7011, status: 400, message: '{field}: dates before 1901 are invalid.' },
  invalidOpeningHours: { code: 7012, status: 400, message: 'opening_hours: {reason}' },
  pickupNeedsTime: {
    code: 7013,
    status: 400,
    message: 'pickup_date_time: is required when there is a pickup destination.',
  },
  paidNeedsPrice: {
    code: 7014,
    status: 400,
    message: 'admissionprice: is required when the admission is paid.',
  },
  eventNeedsLocation: {
    code: 7015,
    status: 400,
    message: 'lat: an event needs a place (lat and lon) or a parent point (xpoint_id).',
  },
  pointAlreadyOwned: {
    code: 7020,
    status: 409,
    message: 'This point already has an owner; only unowned points can be claimed.',
  },
  claimTextNotAllowed: {
    code: 7021,
    status: 400,
    message: 'text: only experiences and rentals take a claim text.',
  },
  pointHasConsultant: { code: 7022, status: 409, message: 'This point already has a consultant.' },
  consultingNotAllowed: {
    code: 7023,
    status: 403,
    message: 'The owner of this point does not allow consulting.',
  },
  ownerCannotConsult: {
    code: 7024,
    status: 409,
    message: 'You own this point; a consultant is someone else who helps you run it.',
  },
  notConsultant: {
    code: 7025,
    status: 403,
    message: 'Only the consultant of this point, its owner or an admin can end consulting.',
  },
  reportHasNoConsultant: {
    code: 7026,
    status: 400,
    message: 'Help requests and incidents have no consultant.',
  },
  ownerOnlySetting: {
    code: 7027,
    status: 403,
    message: '{field}: only the owner of the point or an admin can change this.',
  },
  helpRequestNeedsAccount: {
    code: 7028,
    status: 401,
    message: 'You need to sign in to ask for help, so that helpers can reach you.',
  },
  invalidVideo: {
    code: 7030,
    status: 400,
    message: 'video: must be an MP4, WebM, QuickTime or Ogg video.',
  },
  invalidVideoSize: { code: 7031, status: 413, message: 'Invalid video file size. Max allowed {size}' },
  videoEmpty: {
    code: 7033,
    status: 400,
    message: 'video: the file is empty. Invalid video file size. Max allowed {size}',
  },
  mediaSlotInvalid: { code: 7032, status: 400, message: '{field}: {reason}' },
  videoNeedsMultipart: {
    code: 7034,
    status: 415,
    message:
      'data: a video is sent as multipart/form-data (the file in a part named "file"), not as base64 in JSON.',
  },
  // claims and consultant requests are requests someone decides (issue 16): 704x
  consultantRequestNotFound: {
    code: 7040,
    status: 404,
    message: 'There is no pending request from {username} to consult this point.',
  },
  claimNotFound: { code: 7041, status: 404, message: 'There is no pending claim with id {id}.' },
  pointHasNoConsultant: { code: 7042, status: 409, message: 'This point has no consultant.' },

  // live activity: 8xxx
  beamTokenMissing: {
    code: 8001,
    status: 401,
    message: 'A bearer token is required: Authorization: Bearer <your session token>.',
  },
  beamKindInvalid: { code: 8002, status: 400, message: 'Beam kind must be soon, open or hot.' },
  beamForbidden: {
    code: 8003,
    status: 403,
    message: 'Only the owner, a consultant or an admin may beam {id}.',
  },
  deviceIdInvalid: { code: 8004, status: 400, message: 'deviceid: 1 to 64 letters, digits, _ or -.' },
  promoNotPromoted: { code: 8005, status: 404, message: 'Point {id} is not promoted.' },
  liveUnmatchedTopic: { code: 8010, status: 400, message: 'unmatched topic' },
  liveUnknownEvent: { code: 8011, status: 400, message: 'unknown event "{event}" on this topic' },
  liveAlreadyJoining: { code: 8012, status: 409, message: 'a join of this topic is already in progress' },
  liveDeviceMismatch: {
    code: 8013,
    status: 403,
    message: 'a socket may join only the device topic named by its own deviceId parameter',
  },
  liveChatNeedsToken: { code: 8014, status: 401, message: 'chat channels need a user token: sign in first' },
  liveChatTextInvalid: { code: 8015, status: 400, message: 'text: 1 to {max} characters' },
  liveIqInvalid: { code: 8016, status: 400, message: 'iq: {reason}' },
  liveBoundsInvalid: { code: 8017, status: 400, message: 'bounds: {reason}' },
  longPollSessionsFull: {
    code: 8018,
    status: 429,
    message: 'Too many open long-poll sessions from this address (at most {max}); try again in {retry}.',
  },

  // details: 6xxx (point and event details, nearest cities, callback requests, health photos)
  invalidCoordinates: { code: 6001, status: 400, message: '{field}: {reason}' },
  invalidCityCount: { code: 6002, status: 400, message: 'n: must be a whole number from 1 to {max}.' },
  callbackUserIdMissing: {
    code: 6003,
    status: 400,
    message: 'to_userid: Request callback requires a target user id.',
  },
  serviceNameMissing: { code: 6004, status: 400, message: 'Service Name is not defined' },
  serviceXpointIdMissing: { code: 6005, status: 400, message: 'Service xpointId is not defined' },
  callbackUserNotFound: { code: 6006, status: 404, message: 'There is no user with id {id}.' },
  callbackPointMismatch: {
    code: 6007,
    status: 400,
    message: 'xpointid: point {id} is not a service of the user who is asked to call back.',
  },
  callbackToSelf: { code: 6008, status: 400, message: 'You cannot ask yourself to call you back.' },
  callbackContactMissing: {
    code: 6009,
    status: 400,
    message: 'phone or email: leave a phone number or an email address so the provider can call you back.',
  },
  invalidCallbackField: { code: 6010, status: 400, message: '{field}: {reason}' },
  callbackAntiforgery: {
    code: 6011,
    status: 403,
    message: 'The anti-forgery token is missing or wrong; reload the page and try again.',
  },
  invalidInboxPaging: { code: 6012, status: 400, message: '{field}: {reason}' },
  healthPhotoIdMissing: { code: 6013, status: 400, message: 'id: the point id is required.' },
  fullscreenOnly: {
    code: 6014,
    status: 400,
    message: 'fullscreen: only the full-screen details are rendered here; ask with fullscreen=true.',
  },
  pageRendererNotBuilt: {
    code: 6015,
    status: 503,
    message: 'The page renderer is not built yet (run `npm run build`).',
  },

  // search: 5xxx
  searchQueryInvalid: { code: 5001, status: 400, message: 'q: {reason}' },
  searchMaxResultsInvalid: { code: 5002, status: 400, message: 'maxresults: {reason}' },
  searchBoundsInvalid: { code: 5003, status: 400, message: '{field}: {reason}' },
  searchPageNumberInvalid: { code: 5004, status: 400, message: 'pageNumber: {reason}' },
  searchSupertypeUnknown: {
    code: 5005,
    status: 400,
    message: 'supertype: "{value}" is not a supertype one can search (use {list}, or all).',
  },
  searchKeywordsInvalid: { code: 5006, status: 400, message: 'keywords: {reason}' },
  searchFieldInvalid: { code: 5007, status: 400, message: '{field}: {reason}' },

  // posts (issue 17; social §3-§8): 171xx. A post id that is missing or not a GUID is the spec's
  // invalidPostId (19812) on every call, see src/server/features/posts/service.ts
  postNotFound: { code: 17101, status: 404, message: 'There is no post with id {id}.' },
  postIdTaken: {
    code: 17102,
    status: 409,
    message: 'id: this post id is already used by another post; generate a new one.',
  },
  postPointNotFound: { code: 17103, status: 404, message: 'xpointid: there is no point with id {id}.' },
  postCityNotFound: { code: 17104, status: 400, message: 'city_forurl: there is no city "{city}".' },
  postRenewTooSoon: {
    code: 17105,
    status: 429,
    message: 'A post can be renewed once every 48 hours; renew it again in {retry}.',
  },
  postRenewNeedsExpiry: {
    code: 17106,
    status: 400,
    message: 'expireson: this post has expired; give it a new expiry date (or none) to renew it.',
  },
  postVideoNotFound: { code: 17107, status: 400, message: 'video_id: there is no uploaded video {id}.' },
  postVideoNotYours: {
    code: 17108,
    status: 403,
    message: 'video_id: this video was uploaded by someone else.',
  },
  postRenewNotAuthor: { code: 17109, status: 403, message: 'torenew: only its author renews a post.' },

  // reviews (issue 18; social §2, §7, §8): 181xx
  reviewNotFound: { code: 18101, status: 404, message: 'There is no review {id}.' },
  reviewAlreadyWritten: {
    code: 18102,
    status: 409,
    message: 'You have already reviewed this point; edit or delete your review instead.',
  },
  reviewByController: {
    code: 18103,
    status: 403,
    message: "The point's owner, consultant or an admin cannot review it; they may answer its reviews.",
  },
  reviewReplyNotController: {
    code: 18104,
    status: 403,
    message: "Only the point's owner, consultant or an admin may answer its reviews.",
  },
  reviewReplyNotFound: { code: 18105, status: 404, message: 'Review {id} has no answer to delete.' },
  reviewInviteNotController: {
    code: 18106,
    status: 403,
    message: "Only the point's owner, consultant or an admin may invite reviews.",
  },
  // reviews' keyset pages (issue 18, eng18): 185xx
  reviewsCursorInvalid: { code: 18501, status: 400, message: 'before: {reason}' },

  // videos (issue 17, posts-video): resumable uploads and what became of them; social §8: 4 is "no video"
  videoNotFound: { code: 4, status: 404, message: 'There is no video {id}.' },
  videoNotPlayable: { code: 7050, status: 422, message: 'video: {reason}.' },
  videoUploadLength: { code: 7051, status: 400, message: 'Upload-Length: {reason}' },
  tusVersionMissing: {
    code: 7052,
    status: 412,
    message: 'Tus-Resumable: send 1.0.0, the version of the tus protocol this server speaks.',
  },
  uploadOffsetConflict: {
    code: 7053,
    status: 409,
    message: 'Upload-Offset: the upload does not stand there; ask with HEAD and resume from its offset.',
  },

  // likes (issue 18; social §3, §4, §7, §8): 182xx. A missing objectid or likeid is 6705 naming it
  likeObjectNotFound: { code: 18201, status: 404, message: 'There is no {what} with id {id} to like.' },
  likeTypeInvalid: { code: 18202, status: 400, message: '{field}: must be 0 (up) or 1 (down).' },
  likeObjectTypeInvalid: {
    code: 18203,
    status: 400,
    message: 'objecttype: must be P (a post), R (a review) or C (a comment).',
  },
  likeNotFound: { code: 18204, status: 404, message: 'You have no like with id {id}.' },
  likesDailyLimit: {
    code: 18205,
    status: 429,
    message: 'You have given {max} likes today, the most for {account}; like again in {retry}.',
  },

  // comments (issue 18; social §3-§8): 183xx. A missing or malformed objectid/commentid is 6705 naming it
  commentObjectNotFound: { code: 18301, status: 404, message: 'objectid: there is no post with id {id}.' },
  commentNotFound: { code: 18302, status: 404, message: 'This comment does not exist (any more).' },
  commentNotAuthor: { code: 18303, status: 403, message: 'Only its author can edit a comment.' },
  commentRemoveForbidden: {
    code: 18304,
    status: 403,
    message: "Only its author, the post's author or an admin can remove a comment.",
  },
  commentTooSoon: {
    code: 18305,
    status: 429,
    message: 'You are commenting too fast; try again in {retry}.',
  },
  commentDuplicate: {
    code: 18306,
    status: 409,
    message: 'text: you posted this same comment here a moment ago.',
  },

  // the spec's codes (social §4, §5, §8)
  alreadyFollowed: { code: 122, status: 409, message: 'You already follow this user.' },
  // live social topics, follows and notifications (issue 18, eng-follows): 18400-18499
  liveUserTopicForbidden: {
    code: 18400,
    status: 403,
    message: 'user topics are only for their own user: sign in as that user',
  },
  liveTooManyTopics: { code: 18401, status: 429, message: 'at most {max} social topics on one connection' },
  liveSocialTopicInvalid: {
    code: 18402,
    status: 400,
    message:
      'social topics are social:{type}:{id} with a type of {types} and an id of letters, digits, _ and -',
  },
  followMissingUserId: { code: 18403, status: 400, message: 'Can not follow this user. Missing user id!' },
  followSelf: { code: 18404, status: 400, message: 'You can not follow yourself.' },
  followUserNotFound: { code: 18405, status: 404, message: 'There is no user {id}.' },
  notFollowing: { code: 18406, status: 409, message: 'You do not follow this user.' },
  notificationCursorInvalid: { code: 18407, status: 400, message: '{field}: {reason}' },
  // the spec gives 6705 for a point id (xpointId, the default) and for a post id on every post call
  // but delete (social §5): one error about a parameter, named in the message
  invalidParam: {
    code: 6705,
    status: 400,
    message: 'Param [{param}] is invalid!',
    defaults: { param: 'xpointId' },
  },
  invalidPostId: { code: 19812, status: 400, message: 'Param [postid] is invalid!' },

  // the home page (issue 19, home19): city autocomplete 19100-19199, the landing feed 19200-19299
  locationQueryInvalid: { code: 19101, status: 400, message: '{field}: {reason}' },
  locationLimitInvalid: {
    code: 19102,
    status: 400,
    message: 'limit: must be a whole number from 1 to {max}.',
  },
  feedCityInvalid: { code: 19201, status: 400, message: 'cityid: must be a city id (a whole number).' },
  feedCityNotFound: { code: 19202, status: 404, message: 'There is no city {id}.' },
  feedBeforeInvalid: { code: 19203, status: 400, message: '{field}: {reason}' },
  feedLimitInvalid: { code: 19204, status: 400, message: 'limit: must be a whole number from 1 to {max}.' },

  // posts images (issue 17): a decoded picture's size is refused from its header, before a pixel is decoded
  coverTooManyPixels: {
    code: 2090,
    status: 422,
    message: 'Image too large: at most {megapixels} megapixels.',
  },

  // the connection pinger (issue 19): 194xx
  pingBodyNotEmpty: {
    code: 19401,
    status: 400,
    message: '{field}: the ping takes an empty JSON body ({}), with no fields.',
  },
  // the city page and the event page rendered on the server (issue 19, pages19): 193xx
  cityPageNotFound: { code: 19301, status: 404, message: 'There is no city {city}.' },
  cityPageMalformed: {
    code: 19302,
    status: 400,
    message: 'city_forurl: letters, digits, _, - and ., at most 128 characters.',
  },
  cityQueryInvalid: { code: 19303, status: 400, message: 'q: {reason}' },

  // real-user timings (issue 23): 231xx
  vitalOutOfRange: { code: 23101, status: 400, message: 'value: {name} is at most {max}.' },

  // the owner's website (issue 20; social §5, §7, §8): 20xxx
  websitePartIndexInvalid: {
    code: 20101,
    status: 400,
    message: '{field}: the part index must be a whole number from 1 to {max}.',
  },
  websitePictureIndexInvalid: {
    code: 20102,
    status: 400,
    message: '{field}: the picture index must be a whole number from 1 to 10.',
  },
  websiteFieldUnknown: {
    code: 20103,
    status: 400,
    message: 'fields: "{name}" is not a part field; the fields are title, description and line1 to line10.',
  },
  websiteFieldTwice: { code: 20104, status: 400, message: 'fields: "{name}" is given more than once.' },
  websiteFieldTooLong: {
    code: 20105,
    status: 400,
    message: '{field}: Max length for this field has been exceeded (at most {max} characters).',
  },
  websiteFieldsEmpty: { code: 20106, status: 400, message: 'fields: name at least one field to change.' },
  websiteNotForReports: {
    code: 20107,
    status: 403,
    message: 'Help requests and incidents cannot have a website.',
  },
  websitePictureNotFound: { code: 20108, status: 404, message: 'Part {part} has no picture {pic}.' },
  websiteReorderInvalid: { code: 20109, status: 400, message: 'order: {reason}' },
  websitePictureMissing: {
    code: 20110,
    status: 400,
    message: 'imgFile: send the picture in a part named imgFile, after the other fields.',
  },
  // rental bookings (issue 22): 22201-22249
  bookingNotRental: {
    code: 22201,
    status: 400,
    message: 'rentalid: point {id} is a {supertype}, not a rental; only rentals take bookings.',
  },
  bookingEndBeforeStart: {
    code: 22202,
    status: 400,
    message: 'end: must be after start (at least one night).',
  },
  bookingInPast: { code: 22203, status: 400, message: 'start: {date} is in the past; pick today or later.' },
  bookingTooLong: { code: 22204, status: 400, message: 'end: {what} at most {max} nights.' },
  bookingNightsTaken: {
    code: 22205,
    status: 409,
    message: 'Already taken: {nights}. Pick other dates.',
  },
  bookingNightsClosed: {
    code: 22206,
    status: 409,
    message: 'Not open for booking: {nights}. Pick other dates.',
  },
  bookingMixedCurrency: {
    code: 22207,
    status: 409,
    message: 'These nights are priced in different currencies ({currencies}); book them separately.',
  },
  bookingNotFound: { code: 22208, status: 404, message: 'There is no booking with id {id}.' },
  bookingNotController: {
    code: 22209,
    status: 403,
    message: "Only the rental's owner, its consultant or an admin may {action} this booking.",
  },
  bookingCancelForbidden: {
    code: 22210,
    status: 403,
    message: "Only the guest or the rental's owner, its consultant or an admin may cancel this booking.",
  },
  bookingStateInvalid: {
    code: 22211,
    status: 409,
    message: 'This booking is {state}; it cannot be {action}.',
  },
  availabilityForbidden: {
    code: 22212,
    status: 403,
    message: "Only the rental's owner, its consultant or an admin may set its availability.",
  },
  bookingOwnRental: { code: 22213, status: 400, message: 'You cannot book a rental you control.' },
  // chat with a point (issue 22): 22101-22149
  chatOwnPoint: {
    code: 22101,
    status: 400,
    message: 'You answer this point’s conversations: open one from your inbox (give `visitor`).',
  },
  chatConversationForbidden: {
    code: 22102,
    status: 403,
    message: 'This conversation is between another person and this point; you cannot see it.',
  },
  chatConversationNotFound: {
    code: 22103,
    status: 404,
    message: 'There is no conversation between this person and point {id}.',
  },
  chatTextEmpty: { code: 22104, status: 400, message: 'text: a message needs some text.' },
  chatTextTooLong: {
    code: 22105,
    status: 400,
    message: 'text: at most {max} characters; this message has {length}.',
  },
  chatClientIdInvalid: {
    code: 22106,
    status: 400,
    message: 'client_id: {reason}',
  },
  chatRateLimited: {
    code: 22107,
    status: 429,
    message: 'You are sending messages too fast; try again in {retry}.',
  },
  chatInboxCursorInvalid: {
    code: 22108,
    status: 400,
    message: 'before: not a cursor this inbox gave; start again without it.',
  },
  chatReadBeyond: { code: 22109, status: 400, message: 'upto: line {upto} is not in this conversation.' },
} as const satisfies Record<string, ErrorDefinition>;

export interface ErrorDefinition {
  readonly code: number;
  readonly status: number;
  /** may hold {placeholders} filled from the error's params. */
  readonly message: string;
  /** the placeholders' values when the error's params do not give them. */
  readonly defaults?: Readonly<Record<string, string>>;
}

export type ErrorName = keyof typeof ERRORS;

/**
 * The JSON body of every error response. `field` names the request field at fault when there is one
 * (the name the message starts with), so a form puts the message beside its field without reading
 * the text back.
 */
export interface ErrorBody {
  errorcode: number;
  error: string;
  field?: string;
}

/** A template that starts with its field: `q: {reason}`, `{field}: {reason}`. */
const FIELD_PREFIX = /^(\{field\}|[A-Za-z][\w.]*): /;

/** An error with a catalogue entry: the user sees `message`, the log also gets `cause`. */
export class AppError extends Error {
  readonly code: number;
  readonly status: number;
  readonly errorName: ErrorName;
  /** the request field at fault, when the catalogue's message names one. */
  readonly field: string | undefined;

  constructor(name: ErrorName, params: Record<string, string | number> = {}, options?: { cause?: unknown }) {
    const definition: ErrorDefinition = ERRORS[name];
    super(fillPlaceholders(definition.message, { ...definition.defaults, ...params }), options);
    this.name = 'AppError';
    this.errorName = name;
    this.code = definition.code;
    this.status = definition.status;
    const prefix = FIELD_PREFIX.exec(definition.message)?.[1];
    this.field = prefix === '{field}' ? fieldParam(params) : prefix;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { errorcode: this.code, error: this.message };
    if (this.field !== undefined) body.field = this.field;
    return body;
  }
}

/** `{field}` as given; undefined when absent or not a plain field name (`body`, a path with spaces). */
function fieldParam(params: Record<string, string | number>): string | undefined {
  const field = params['field'];
  return typeof field === 'string' && field !== 'body' && /^[A-Za-z][\w.[\]]*$/.test(field)
    ? field
    : undefined;
}

export function fillPlaceholders(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  );
}

/** Codes must be unique: a test checks this, and so does this guard at load time in development. */
export function duplicateCodes(): number[] {
  const seen = new Set<number>();
  const duplicates: number[] = [];
  for (const { code } of Object.values(ERRORS)) {
    if (seen.has(code)) duplicates.push(code);
    seen.add(code);
  }
  return duplicates;
}
