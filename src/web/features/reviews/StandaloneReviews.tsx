import { StandaloneProviders } from '../accounts/StandaloneProviders';
import { PointReviews, type RatedPoint } from './PointReviews';

/** The rating link and the Reviews modal where the page may have no app providers around it. */
export default function StandaloneReviews({ point }: { point: RatedPoint }) {
  return (
    <StandaloneProviders>
      <PointReviews point={point} sentence />
    </StandaloneProviders>
  );
}
