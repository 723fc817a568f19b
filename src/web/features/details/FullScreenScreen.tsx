import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { categoryName } from '../../../shared/domain/categories';
import { errorText } from '../../lib/query';
import { useDocumentTitle, useShell } from '../../shell/context';
import { PanelLoader } from '../../shell/SidePanel';
import { useSession } from '../accounts/session';
import { FullScreenPoint } from './FullScreenPoint';
import { pointDetailsQuery } from './queries';

/**
 * The full-screen point page inside the app (/f/{id} or /{id} reached without a page load): the
 * same page the server renders, over the map. Closing goes back to the point's normal address,
 * which loads its details again (§4); a failed load warns, alerts its message and returns to the
 * map (§8).
 */
export function FullScreenScreen({ id }: { id: string }) {
  // the controls depend on who looks: signing in or out loads the point again
  const { user } = useSession();
  return <FullScreenLevel key={user?.id ?? ''} id={id} />;
}

function FullScreenLevel({ id }: { id: string }) {
  const { navigation } = useShell();
  const { user } = useSession();
  const resource = useQuery(pointDetailsQuery(id, user?.id ?? ''));
  useDocumentTitle(resource.data?.title ?? null);
  const failure = resource.status === 'error' ? errorText(resource.error) : null;

  useEffect(() => {
    if (failure === null) return;
    console.warn('XPoint: the full-screen page could not be loaded:', failure);
    window.alert(failure);
    navigation.toMap();
  }, [failure, navigation]);

  return (
    <div className="fullscreen-overlay">
      {resource.status === 'success' ? (
        <FullScreenPoint
          point={resource.data}
          category={categoryName(resource.data.supertype, resource.data.type)}
          host={window.location.host}
          onClose={navigation.replace}
          onOpen={navigation.openLevel}
        />
      ) : (
        <PanelLoader label="Loading the place…" />
      )}
    </div>
  );
}
