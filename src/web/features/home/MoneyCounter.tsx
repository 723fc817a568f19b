import { useEffect, useState } from 'react';
import { MONEY_START, formatMoney, nextMoney } from './moneyCounter';

/**
 * The decorative money counter (social §4, §9): +7 dollars a second from 1, back to 1 at 100. It is
 * decoration, labelled as a ticker that claims no fact; screen readers skip it (aria-hidden), and it
 * stands still for people who ask the system for less motion.
 */
export function MoneyCounter() {
  const [value, setValue] = useState(MONEY_START);
  useEffect(() => {
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    const timer = window.setInterval(() => setValue(nextMoney), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <p className="home-money" aria-hidden="true">
      <span className="home-money__amount">{formatMoney(value)}</span>
      <span className="home-money__label">deal ticker</span>
    </p>
  );
}
