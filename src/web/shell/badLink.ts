import { SEARCH_SUPERTYPES } from '../../shared/address';

/**
 * What a link whose data= segment cannot be used says, in words (issue 21, bad input): the spec
 * closes the side panel on bad JSON (§8), which left a bare map and no clue; the panel now says
 * what was wrong with the link, and closing it shows the map. `detail` is the address parser's
 * reason ('search.southwest.lat: Too small: …'); `pathname` the address, for the value at fault.
 */
export function badLinkMessage(pathname: string, detail: string): string {
  if (/search\.supertype/.test(detail)) {
    const given = supertypeIn(pathname);
    const named = given === null ? 'The kind of place in this link' : `“${given.slice(0, 40)}”`;
    return `${named} is not a kind of place XPoint knows. Choose one of: ${SEARCH_SUPERTYPES.join(', ')}.`;
  }
  if (/(southwest|northeast)\.lat|loc\.lat/.test(detail))
    return 'A latitude in this link is off the globe: latitudes run from -90 to 90. The link may have been cut or changed.';
  if (/(southwest|northeast)\.lon|loc\.lng/.test(detail))
    return 'A longitude in this link is out of range: longitudes run from -180 to 180. The link may have been cut or changed.';
  if (/southwest/.test(detail) && /north/.test(detail))
    return 'The area in this link is upside down: its south-west corner lies north of its north-east one.';
  return `This link’s map data could not be read (${detail}). The link may have been cut or changed.`;
}

/** The `search.supertype` a data= segment names, or null when it cannot be read. */
function supertypeIn(pathname: string): string | null {
  const at = pathname.indexOf('data=');
  if (at < 0) return null;
  try {
    const data = JSON.parse(decodeURIComponent(pathname.slice(at + 5))) as {
      search?: { supertype?: unknown };
    };
    const value = data.search?.supertype;
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}
