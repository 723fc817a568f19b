import { Link } from 'react-router';
import { UserMenu } from './UserMenu';

/** The top bar of pages that are not the map (profile, sign-in): brand on the left, account on the right. */
export function PageHeader() {
  return (
    <header className="page-header">
      <Link className="brand" to="/" aria-label="XPoint home">
        XPoint
      </Link>
      <UserMenu />
    </header>
  );
}
