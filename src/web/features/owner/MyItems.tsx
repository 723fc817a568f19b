import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { MYPOINTS_MAX_PAGESIZE, myPointsResponseSchema, type MyPoint } from '../../../shared/api/points';
import { successUrlFor } from '../../../shared/address';
import { findCategory } from '../../../shared/domain/categories';
import { apiQuery, errorText } from '../../lib/query';
import { PointCover } from '../accounts/PointCard';
import { useSession } from '../accounts/session';
import { formatDateTime } from '../details/format';
import { itemControls } from './itemControls';
import { myPointsPath } from './ownerApi';
import './owner.css';

export interface MyItemsProps {
  /** the list the page is about: a point supertype ('service', 'helprequest') or 'event'. */
  supertype: string;
  /** what that list is called, for the choice between it and everything. */
  label: string;
  empty: string;
}

/**
 * The signed-in user's own points and events (GET /v1/account/mypoints), newest change first, each
 * with its controls. The page's own list comes first; "everything" shows all their points and events.
 */
export function MyItems({ supertype, label, empty }: MyItemsProps) {
  const [scope, setScope] = useState<'page' | 'all'>('page');
  const name = useId();
  const { user } = useSession();
  const resource = useQuery(
    apiQuery(
      myPointsPath(scope === 'page' ? supertype : 'all', MYPOINTS_MAX_PAGESIZE),
      myPointsResponseSchema,
      user?.id ?? '',
    ),
  );
  return (
    <div className="my-items">
      <div className="my-items__scope" role="radiogroup" aria-label="Show">
        {(
          [
            ['page', label],
            ['all', 'All my points and events'],
          ] as const
        ).map(([value, text]) => (
          <label key={value} className="my-items__choice">
            <input
              type="radio"
              name={name}
              value={value}
              checked={scope === value}
              onChange={() => setScope(value)}
            />
            <span>{text}</span>
          </label>
        ))}
      </div>
      {resource.status === 'pending' ? (
        <p className="my-points__note">Loading…</p>
      ) : resource.status === 'error' ? (
        <p className="my-points__note" role="alert">
          {errorText(resource.error)}
        </p>
      ) : resource.data.items.length === 0 ? (
        <p className="my-points__note my-points__empty">
          {scope === 'page' ? empty : 'You have no points or events yet.'}
        </p>
      ) : (
        <>
          <ul className="my-items__list">
            {resource.data.items.map((item) => (
              <li key={`${item.kind}:${item.id}`}>
                <MyItem item={item} />
              </li>
            ))}
          </ul>
          {resource.data.total > resource.data.items.length && (
            <p className="my-points__note">
              The {resource.data.items.length} most recently changed of {resource.data.total}.
            </p>
          )}
        </>
      )}
    </div>
  );
}

function itemMeta(item: MyPoint): string {
  const kind = item.kind === 'event' ? 'event' : item.supertype;
  const type = findCategory(kind, item.type)?.name ?? item.type.replaceAll('_', ' ');
  const when =
    item.kind === 'event' && item.start_date !== null ? ` · ${formatDateTime(item.start_date)}` : '';
  const role =
    item.kind !== 'point'
      ? ''
      : item.role === 'consultant'
        ? ' · you consult'
        : item.role === 'claimant'
          ? ' · claim pending verification'
          : item.role === 'requester'
            ? ' · consult request pending'
            : '';
  return `${type}${when}${role}`;
}

function MyItem({ item }: { item: MyPoint }) {
  const location = useLocation();
  const here = successUrlFor(location.pathname, location.search);
  return (
    <article className="my-item" aria-label={item.title}>
      <div className="my-item__head">
        <PointCover className="xp-thumb" src={item.cover} supertype={item.supertype} />
        <div className="my-item__text">
          <Link className="my-item__title" to={item.url}>
            {item.title}
          </Link>
          <span className="my-item__meta">{itemMeta(item)}</span>
        </div>
      </div>
      <nav className="my-item__controls" aria-label={`Manage ${item.title}`}>
        <Link className="xp-button xp-button--small" to={item.url}>
          Open
        </Link>
        {itemControls(item, here).map((control) => (
          <Link
            key={control.label}
            className={
              control.danger ? 'xp-button xp-button--small owner-link--danger' : 'xp-button xp-button--small'
            }
            to={control.href}
          >
            {control.label}
          </Link>
        ))}
      </nav>
    </article>
  );
}
