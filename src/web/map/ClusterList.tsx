import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { findCategory } from '../../shared/domain/categories';
import { SUPERTYPE_COLORS, type ClusterLeaf, type LayerGroup } from '../../shared/map/contract';
import { focusMap } from './mapHandle';
import { ClusterApiError, fetchClusterLeaves } from './clusterApi';
import { LAYER_GROUP_NAMES } from './layerVisibility';
import { useShell } from '../shell/context';
import { SidePanel } from '../shell/SidePanel';
import './map.css';

/**
 * The /cluster screen (§2, §4 "clicking a cluster lists its members; clicking one opens its
 * details"): a side panel over the map listing a cluster's points a page at a time, so a cluster of
 * a million points (§9) costs one page per "Show more". Every member is a link, reachable by Tab.
 */
export function ClusterList() {
  const { route, navigation } = useShell();
  const cluster =
    route.screen === 'cluster' || route.screen === 'momcluster' ? route.data.cluster : undefined;

  const close = useCallback(() => {
    navigation.toMap();
    focusMap();
  }, [navigation]);

  return cluster === undefined ? (
    <SidePanel title="Places here" className="cluster-list" onClose={close} closeLabel="Close the list">
      <p className="cluster-list__message">Click a cluster on the map to list its places.</p>
    </SidePanel>
  ) : (
    <ClusterMembers
      key={`${cluster.group}/${cluster.id}`}
      group={cluster.group}
      clusterId={cluster.id}
      onClose={close}
      open={navigation.openLevel}
    />
  );
}

type LoadState = { kind: 'loading' } | { kind: 'idle' } | { kind: 'failed'; message: string };

function ClusterMembers({
  group,
  clusterId,
  onClose,
  open,
}: {
  group: LayerGroup;
  clusterId: number;
  onClose(): void;
  /** opens a member as the next level, so back returns to this list. */
  open(to: string): void;
}) {
  const [leaves, setLeaves] = useState<ClusterLeaf[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [state, setState] = useState<LoadState>({ kind: 'loading' });
  const listRef = useRef<HTMLUListElement>(null);
  /** index of the first item of the last page added, to move focus there after "Show more". */
  const focusFromRef = useRef<number | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  /**
   * Fetches the page at `offset` and adds it, cancelling any page still on its way. The caller says
   * it is loading (the initial state, or Show more).
   */
  const load = useCallback(
    (offset: number) => {
      abortRef.current?.abort();
      const controller = new AbortController();
      abortRef.current = controller;
      fetchClusterLeaves(group, clusterId, offset, controller.signal).then(
        (page) => {
          setTotal(page.total);
          setLeaves((previous) => (offset === 0 ? page.leaves : [...previous, ...page.leaves]));
          setState({ kind: 'idle' });
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setState({
            kind: 'failed',
            message:
              error instanceof ClusterApiError
                ? error.message
                : 'The places in this cluster could not be loaded.',
          });
        },
      );
    },
    [group, clusterId],
  );

  // the first page; the component is keyed by the cluster, so this runs once per cluster
  useEffect(() => {
    load(0);
    return () => abortRef.current?.abort();
  }, [load]);

  useEffect(() => {
    const from = focusFromRef.current;
    if (from === null || state.kind !== 'idle') return;
    focusFromRef.current = null;
    listRef.current?.querySelectorAll('a')[from]?.focus();
  }, [leaves, state]);

  const showMore = () => {
    focusFromRef.current = leaves.length;
    setState({ kind: 'loading' });
    load(leaves.length);
  };

  const groupName = LAYER_GROUP_NAMES[group];
  const hash = window.location.hash;
  return (
    <SidePanel title={groupName} className="cluster-list" onClose={onClose} closeLabel="Close the list">
      <p className="cluster-list__count" aria-live="polite">
        {total === null
          ? 'Loading places…'
          : `${total.toLocaleString('en-US')} ${total === 1 ? 'place' : 'places'}`}
      </p>
      <ul ref={listRef} className="cluster-list__items">
        {leaves.map((leaf) => (
          <li key={leaf.appnetid}>
            <Link
              className="cluster-list__item"
              to={{ pathname: leaf.clickurl, hash }}
              onClick={(event) => {
                event.preventDefault();
                open(leaf.clickurl);
              }}
            >
              <span
                className="cluster-list__swatch"
                style={{ backgroundColor: SUPERTYPE_COLORS[group] }}
                aria-hidden="true"
              />
              <span className="cluster-list__name">{leaf.title}</span>
              <span className="cluster-list__category">
                {findCategory(group, leaf.businesstype)?.name ?? leaf.businesstype}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      {state.kind === 'failed' && (
        <p className="cluster-list__message" role="alert">
          {state.message}
        </p>
      )}
      {total !== null && leaves.length < total && (
        <button
          type="button"
          className="cluster-list__more"
          disabled={state.kind === 'loading'}
          onClick={showMore}
        >
          {state.kind === 'loading'
            ? 'Loading…'
            : `Show more (${(total - leaves.length).toLocaleString('en-US')} left)`}
        </button>
      )}
    </SidePanel>
  );
}
