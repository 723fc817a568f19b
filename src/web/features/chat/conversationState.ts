import type { ChatLine, ChatSide } from '../../../shared/api/chat';

/**
 * What a conversation shows (issue 22), kept apart from the socket so it can be tested alone: the
 * stored lines by id, and the lines this tab has sent that the server has not acknowledged yet
 * (`pending`: shown at the end, resent with the same client id when the socket is back). A line that
 * arrives twice (the reply and the broadcast, a catch-up that overlaps the live lines) shows once.
 */
export interface ShownLine {
  /** React key: the client id, stable from sending to stored. */
  key: string;
  id: number | null;
  client_id: string;
  text: string;
  side: ChatSide;
  from: string;
  at: number;
  state: 'stored' | 'pending' | 'failed';
  error?: string;
}

export function shownOf(line: ChatLine): ShownLine {
  return {
    key: line.client_id,
    id: line.id,
    client_id: line.client_id,
    text: line.text,
    side: line.side,
    from: line.from,
    at: line.at,
    state: 'stored',
  };
}

/** Merges stored lines in: each id once, a pending line replaced by its stored self, ids in order. */
export function mergeLines(lines: readonly ShownLine[], incoming: readonly ChatLine[]): ShownLine[] {
  if (incoming.length === 0) return [...lines];
  const stored = new Map<number, ShownLine>();
  const waiting: ShownLine[] = [];
  for (const line of lines) {
    if (line.id !== null) stored.set(line.id, line);
    else waiting.push(line);
  }
  const arrived = new Set<string>();
  for (const line of incoming) {
    stored.set(line.id, shownOf(line));
    arrived.add(line.client_id);
  }
  const ordered = [...stored.values()].sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
  return [...ordered, ...waiting.filter((line) => !arrived.has(line.client_id))];
}

/** A line this tab is sending, shown at once. */
export function pendingLine(clientId: string, text: string, side: ChatSide, from: string): ShownLine {
  return { key: clientId, id: null, client_id: clientId, text, side, from, at: Date.now(), state: 'pending' };
}

/** A line the server refused for good (too long, too fast…): shown with why, not resent. */
export function failLine(lines: readonly ShownLine[], clientId: string, error: string): ShownLine[] {
  return lines.map((line) =>
    line.client_id === clientId && line.id === null ? { ...line, state: 'failed', error } : line,
  );
}

/** The newest stored id: where a catch-up after a reconnect starts. */
export function lastStoredId(lines: readonly ShownLine[]): number {
  let last = 0;
  for (const line of lines) if (line.id !== null && line.id > last) last = line.id;
  return last;
}

/** The newest line of the other side: what marking read sends as `upto`. */
export function newestOtherId(lines: readonly ShownLine[], mine: ChatSide): number {
  let newest = 0;
  for (const line of lines) if (line.id !== null && line.side !== mine && line.id > newest) newest = line.id;
  return newest;
}
