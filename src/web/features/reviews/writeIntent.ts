/**
 * A visitor who asked to write a review signs in first; signing in loads the point's panel again for
 * the new viewer (its controls differ), which unmounts the open modal. The wish to write is kept here,
 * per point, so the panel opens the form again once mounted, and forgotten once the form has opened.
 */
let pending: string | null = null;

export function rememberWriting(appid: string): void {
  pending = appid;
}

/** True (once) when a form for `appid` was asked for before a sign-in. */
export function takeWriting(appid: string): boolean {
  if (pending !== appid) return false;
  pending = null;
  return true;
}
