/** Up to two initials of a full name ('Olivia Owner' -> 'OO'), or the username's first letter. */
export function initialsOf(fullname: string, username: string): string {
  const words = fullname.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words.slice(0, 1);
  const initials = letters.map((word) => [...(word ?? '')][0] ?? '').join('');
  return (initials || [...username][0] || '?').toUpperCase();
}

/** A round avatar picture, or the person's initials on a coloured disc when they have none. */
export function Avatar({
  fullname,
  username,
  src,
  size = 32,
}: {
  fullname: string;
  username: string;
  src: string | null;
  size?: number;
}) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) };
  if (src) return <img className="xp-avatar" src={src} alt="" width={size} height={size} style={style} />;
  return (
    <span className="xp-avatar xp-avatar--initials" style={style} aria-hidden="true">
      {initialsOf(fullname, username)}
    </span>
  );
}
