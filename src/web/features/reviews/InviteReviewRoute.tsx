import { useEffect } from 'react';
import { pointLink } from '../../../shared/address';
import { REVIEW_INVITE_VALUE, REVIEW_OPEN_PARAM } from '../../../shared/api/wire';
import { useShell } from '../../shell/context';

/**
 * /Review/InviteReview?appid={id} opened in the app (the panel's "Invite reviews" control): the
 * point's panel with its reviews and the invite box open. The point's own prefix is not known here;
 * `/x/{id}` is corrected to it by the panel, which keeps the query.
 */
export function InviteReviewRoute({ appId }: { appId: string }) {
  const { navigation } = useShell();
  useEffect(() => {
    navigation.replace(`${pointLink(appId, 'x')}?${REVIEW_OPEN_PARAM}=${REVIEW_INVITE_VALUE}`);
  }, [appId, navigation]);
  return null;
}
