import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { LIKE_UP, type LikeObjectType, type LikeType, type Liker } from '../../../shared/api/likes';
import { profileLink } from '../../../shared/address/links';
import { errorText } from '../../lib/query';
import { Dialog } from '../../ui/Dialog';
import { Avatar } from '../accounts/Avatar';
import { likersPage } from './likesApi';

export interface LikersDialogProps {
  objectType: LikeObjectType;
  objectId: string;
  likeType: LikeType;
  onClose(): void;
  /** the follows feature's button for a liker (a slot: absent, the row has none) */
  renderFollow?(liker: Liker): ReactNode;
}

/**
 * The people who liked (or disliked) an object, newest first, 20 at a time with "Show more"
 * (`/likes/list`, keyset pages): avatar, name linking to the profile, and a follow button when the
 * follows feature gives one. A failure shows as an alert in the dialog (social §8).
 */
export function LikersDialog({ objectType, objectId, likeType, onClose, renderFollow }: LikersDialogProps) {
  const titleId = useId();
  const likers = useInfiniteQuery({
    queryKey: ['/likes/list', objectType, objectId, likeType],
    queryFn: ({ pageParam, signal }) => likersPage(objectType, objectId, likeType, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const people = likers.data?.pages.flatMap((page) => page.items) ?? [];
  const title = likeType === LIKE_UP ? 'People who like this' : 'People who dislike this';
  return (
    <Dialog className="likes-dialog" labelledBy={titleId} onClose={onClose}>
      <div className="xp-modal__head">
        <h2 id={titleId} className="xp-modal__title">
          {title}
        </h2>
        <button type="button" className="xp-modal__close" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      {likers.status === 'pending' && <p className="likes-dialog__note">Loading…</p>}
      {likers.status === 'error' && (
        <p className="likes-dialog__note likes-dialog__note--error" role="alert">
          {errorText(likers.error)}
        </p>
      )}
      {likers.status === 'success' && people.length === 0 && (
        <p className="likes-dialog__note">No one yet.</p>
      )}
      {people.length > 0 && (
        <ul className="likes-dialog__list">
          {people.map((liker) => (
            <li key={liker.id} className="likes-dialog__person">
              <Avatar fullname={liker.displayname} username={liker.username} src={liker.avatar} size={36} />
              <a className="likes-dialog__name" href={profileLink(liker.username)}>
                <span>{liker.displayname}</span>
                <span className="likes-dialog__username">@{liker.username}</span>
              </a>
              {renderFollow?.(liker)}
            </li>
          ))}
        </ul>
      )}
      {likers.hasNextPage && (
        <button
          type="button"
          className="xp-button likes-dialog__more"
          disabled={likers.isFetchingNextPage}
          onClick={() => void likers.fetchNextPage()}
        >
          {likers.isFetchingNextPage ? 'Loading…' : 'Show more'}
        </button>
      )}
    </Dialog>
  );
}
