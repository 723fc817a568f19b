/** The top bar's brand: the home link, "XPoint" on wide screens and "X" on phones. */
export function Brand() {
  return (
    <a className="brand" href="/" aria-label="XPoint home">
      <span className="brand__long">XPoint</span>
      <span className="brand__short" aria-hidden="true">
        X
      </span>
    </a>
  );
}
