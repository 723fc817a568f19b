import { useEffect, useMemo, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { EditField } from './EditField';
import { errorAt } from '../../ui/formErrors';
import type { EditValues } from './editForm';
import { liveOpeningHours, previewText, type LivePlace } from './openingHoursLive';

/** The open-now preview follows the clock while the form is open. */
const PREVIEW_TICK_MS = 30_000;

export interface OpeningHoursFieldProps {
  place: LivePlace;
}

/**
 * Opening hours with a live check (issue 8): while typing, the `opening_hours` library's parse
 * error is the field's error, its warnings are listed beside the field, and the place's open-now
 * state is previewed in its own time zone.
 */
export function OpeningHoursField({ place }: OpeningHoursFieldProps) {
  const { control, register, setValue, formState } = useFormContext<EditValues>();
  const value = useWatch({ control, name: 'opening_hours' });
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), PREVIEW_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  const live = useMemo(() => liveOpeningHours(value, place, now), [value, place, now]);

  // the library's reading while typing; after a refused save, the form's or the server's message
  const error =
    live.kind === 'error' ? `Opening hours: ${live.error}` : errorAt(formState.errors, 'opening_hours');
  const hint = (
    <div className="opening-hours-live" aria-live="polite">
      {live.kind === 'empty' && <p>No opening hours: the place shows no open-now state.</p>}
      {live.kind === 'ok' && (
        <>
          <p className={`open-now open-now--${live.state} opening-hours-live__preview`}>
            {previewText(live)}
          </p>
          {live.prettified !== null && (
            <p>
              Will be saved as <code>{live.prettified}</code>{' '}
              <button
                type="button"
                className="link-button"
                onClick={() => setValue('opening_hours', live.prettified ?? value, { shouldDirty: true })}
              >
                Use this
              </button>
            </p>
          )}
          {live.warnings.length > 0 && (
            <ul className="opening-hours-live__warnings" aria-label="Opening hours warnings">
              {live.warnings.map((warning, index) => (
                <li key={`${warning.type}-${index}`}>
                  <span aria-hidden="true">⚠ </span>
                  {warning.message}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <p className="opening-hours-live__syntax">
        OpenStreetMap syntax, 24-hour times: <code>Mo-Fr 09:00-18:00; Sa 10:00-14:00; PH off</code>
      </p>
    </div>
  );
  return (
    <EditField
      registration={register('opening_hours')}
      label="Opening hours"
      control={{ kind: 'textarea', rows: 2 }}
      error={error}
      hint={hint}
    />
  );
}
