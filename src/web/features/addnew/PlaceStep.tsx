import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { createPortal } from 'react-dom';
import { useNavigate } from 'react-router';
import { Marker, Popup } from 'maplibre-gl';
import type { AddNewSupertype } from '../../../shared/address';
import type { DuplicateCandidate } from '../../../shared/api/points';
import type { Category } from '../../../shared/domain/categories';
import { ApiError } from '../../lib/api';
import {
  addToMap,
  claimMapClicks,
  onMapMoveEnd,
  placeBelowMapCenter,
  placeOnScreen,
  revealOnMap,
} from '../../map/mapHandle';
import { useFullScreenLoader } from '../../shell/FullScreenLoader';
import { SidePanel } from '../../shell/SidePanel';
import { errorAt } from '../../ui/formErrors';
import { useRefusalFocus } from '../../ui/useRefusalFocus';
import { closestCities, createPoint, duplicateCandidates } from './addNewApi';
import { AddNewForm } from './AddNewForm';
import {
  FORM_FIELDS,
  addNewFormSchema,
  createBody,
  errorFromServer,
  formReducer,
  initialFormState,
  markerPosition,
  nearestPlace,
  type FormAction,
  type FormState,
  type FormValues,
} from './addNewForm';
import { forgetDraft, rememberForm, rememberedForm } from './draft';
import { popupPlacement } from './popupPlacement';
import { SUPERTYPE_TEXT } from './supertypeText';

/** §9: the new point's marker sits this far below the map's centre. */
export const MARKER_OFFSET_PX = 50;
/** §9: the form's popup hangs this far from the marker. */
export const POPUP_OFFSET_PX = 25;
/** The popup's width (styles.css `.addnew-popup`), px. */
const POPUP_WIDTH_PX = 340;
/** The lookup waits for the marker to rest this long, so a drag asks once. */
const LOOKUP_DELAY_MS = 250;
/** Typed coordinates are followed once typing pauses this long, not digit by digit. */
const REVEAL_DELAY_MS = 600;
/** §9 mobile breakpoint: below it the form sits in the bottom sheet, where it has room. */
const NARROW_QUERY = '(max-width: 600px)';

const POSSIBLE_DUPLICATE = 7001;

function subscribeNarrow(onChange: () => void): () => void {
  const query = window.matchMedia(NARROW_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
const isNarrow = () => window.matchMedia(NARROW_QUERY).matches;

/** Puts the popup where all of the form shows beside the marker, and lets the form scroll within it. */
function placePopup(popup: Popup, body: HTMLElement, lat: number, lon: number): void {
  const screen = placeOnScreen(lon, lat);
  if (screen === null) return;
  const { anchor, maxHeight } = popupPlacement(screen, screen.area, {
    width: POPUP_WIDTH_PX,
    offset: POPUP_OFFSET_PX,
  });
  popup.options.anchor = anchor;
  body.style.maxHeight = `${maxHeight}px`;
  popup.setLngLat([lon, lat]);
}

export interface PlaceStepProps {
  title: string;
  supertype: AddNewSupertype;
  category: Category;
  onBack(): void;
  onClose(): void;
}

/**
 * Step 3 (§4): a marker 50 px below the map's centre, moved by clicking the map (or dragging it, or
 * typing its coordinates), with the add-new form in a popup 25 px from it — in the bottom sheet on
 * phones. Until the visitor places the marker it follows the view, and wherever it rests the
 * nearest city fills city, region and country. The form submits under the full-screen loader; a
 * possible duplicate is offered before saving; the new point then opens in its panel.
 */
export function PlaceStep({ title, supertype, category, onBack, onClose }: PlaceStepProps) {
  const [initial] = useState(
    () =>
      rememberedForm(supertype, category.key) ??
      initialFormState(toLatLon(placeBelowMapCenter(MARKER_OFFSET_PX))),
  );
  const form = useForm<FormValues>({
    defaultValues: initial.values,
    resolver: zodResolver(addNewFormSchema(supertype, category.key)),
    shouldFocusError: false,
  });
  const { control, getValues, setValue, setError, setFocus, handleSubmit } = form;
  const values = useWatch({ control }) as FormValues;
  // what formReducer keeps besides the values: which lookup fields were typed, whether the
  // visitor placed the marker, the lookup's answer (only that is drawn)
  const meta = useRef<Omit<FormState, 'values'>>(initial);
  const [place, setPlace] = useState(initial.place);
  const [serverError, setServerError] = useState<string | null>(null);
  const formRef = useRefusalFocus('.addnew-form__error', form.formState.submitCount);
  const [duplicates, setDuplicates] = useState<DuplicateCandidate[] | null>(null);
  const [popupNode] = useState(() => {
    const node = document.createElement('div');
    node.className = 'addnew-popup__body';
    return node;
  });
  const narrow = useSyncExternalStore(subscribeNarrow, isNarrow);
  const loader = useFullScreenLoader();
  const navigate = useNavigate();
  const markerRef = useRef<Marker | null>(null);
  const popupRef = useRef<Popup | null>(null);
  const positionRef = useRef<{ lat: number; lon: number } | null>(null);
  const position = markerPosition(values);
  const lat = position?.lat ?? null;
  const lon = position?.lon ?? null;

  /** The marker, the lookup or typing changed the form: formReducer says how, the form takes it. */
  const dispatch = useCallback(
    (action: FormAction) => {
      const before = { ...meta.current, values: getValues() };
      const next = formReducer(before, action);
      if (next === before) return;
      for (const field of FORM_FIELDS)
        if (next.values[field] !== before.values[field]) setValue(field, next.values[field]);
      meta.current = { typed: next.typed, placed: next.placed, place: next.place };
      setPlace(next.place);
    },
    [getValues, setValue],
  );

  // the draft survives going back to step 2 and forward again
  useEffect(
    () => rememberForm(supertype, category.key, { ...meta.current, values }),
    [supertype, category.key, values, place],
  );

  // the marker and its popup live as long as the step
  useEffect(() => {
    const marker = new Marker({ color: '#d1242f', draggable: true });
    const popup = new Popup({
      offset: POPUP_OFFSET_PX,
      closeButton: false,
      closeOnClick: false,
      closeOnMove: false,
      focusAfterOpen: false,
      maxWidth: 'none',
      className: 'addnew-popup',
    }).setDOMContent(popupNode);
    marker.getElement().setAttribute('aria-label', 'The new XPoint');
    marker.on('dragend', () => {
      const at = marker.getLngLat().wrap();
      dispatch({ type: 'move', lat: at.lat, lon: at.lng, placed: true });
    });
    markerRef.current = marker;
    popupRef.current = popup;
    const release = claimMapClicks(({ lng, lat: clickedLat }) =>
      dispatch({ type: 'move', lat: clickedLat, lon: lng, placed: true }),
    );
    // before the visitor places it, the marker comes back below the centre when the view rests;
    // placed, it stays, and its popup finds room around it again
    const stopFollowing = onMapMoveEnd(() => {
      const at = placeBelowMapCenter(MARKER_OFFSET_PX);
      if (at !== null) dispatch({ type: 'move', lat: at.lat, lon: at.lng, placed: false });
      const position = positionRef.current;
      if (popup.isOpen() && position !== null) placePopup(popup, popupNode, position.lat, position.lon);
    });
    // deep links can arrive before the map's first frame: place the marker on the next one
    const frame = requestAnimationFrame(() => {
      const at = placeBelowMapCenter(MARKER_OFFSET_PX);
      if (at !== null) dispatch({ type: 'move', lat: at.lat, lon: at.lng, placed: false });
    });
    return () => {
      cancelAnimationFrame(frame);
      stopFollowing();
      release();
      popup.remove();
      marker.remove();
      markerRef.current = null;
      popupRef.current = null;
    };
  }, [popupNode, dispatch]);

  // the marker follows the form's coordinates, once they are a place; on wide screens the form's
  // popup goes with it, on phones the form is in the sheet
  useEffect(() => {
    const marker = markerRef.current;
    const popup = popupRef.current;
    if (marker === null || popup === null || lat === null || lon === null) return;
    positionRef.current = { lat, lon };
    marker.setLngLat([lon, lat]);
    if (!marker.getElement().isConnected) addToMap(marker);
    marker.getElement().setAttribute('aria-label', `The new XPoint, at ${lat}, ${lon}`);
    if (narrow) {
      popup.remove();
      return;
    }
    placePopup(popup, popupNode, lat, lon);
    if (!popup.isOpen()) addToMap(popup);
  }, [lat, lon, narrow, popupNode]);

  // typed coordinates can put the marker out of sight: once typing pauses, the map brings it back
  useEffect(() => {
    if (lat === null || lon === null) return;
    const timer = setTimeout(() => revealOnMap(lon, lat), REVEAL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [lat, lon]);

  // the nearest city, once the marker rests (offline: our own cities, §7 closestn)
  useEffect(() => {
    if (lat === null || lon === null) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      closestCities(lat, lon, controller.signal)
        .then((cities) => dispatch({ type: 'place', lat, lon, place: nearestPlace(cities, lat, lon) }))
        .catch((error: unknown) => {
          // §8: a failed nearest-location call is logged, the visitor is not troubled
          if (!controller.signal.aborted) console.warn('XPoint: the nearest city lookup failed', error);
        });
    }, LOOKUP_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [lat, lon, dispatch]);

  const send = async (formValues: FormValues, confirmNotDuplicate: boolean) => {
    const body = createBody(supertype, category.key, formValues, { confirmNotDuplicate });
    setServerError(null);
    try {
      const created = await loader.run(createPoint(body), 'Adding your XPoint…');
      forgetDraft();
      void navigate(`${created.url}${window.location.hash}`, { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.code === POSSIBLE_DUPLICATE) {
        const candidates = await duplicateCandidates(body).catch(() => []);
        setDuplicates(candidates);
        setServerError(candidates.length === 0 ? error.message : null);
        return;
      }
      const problems = errorFromServer(error);
      for (const [field, message] of Object.entries(problems.fields))
        setError(field as keyof FormValues, { message });
      setServerError(problems.form);
    }
  };
  const submit = (confirmNotDuplicate: boolean) =>
    void handleSubmit(
      (formValues) => send(formValues, confirmNotDuplicate),
      () => setServerError(null),
    )();

  const addNewForm = (
    <AddNewForm
      supertypeName={SUPERTYPE_TEXT[supertype].name}
      typeName={category.name}
      place={place}
      formError={serverError ?? errorAt(form.formState.errors, 'root.form') ?? null}
      duplicates={duplicates}
      formRef={formRef}
      onEdit={(field, value) => {
        dispatch({ type: 'edit', field, value });
        if (field === 'title') setDuplicates(null);
      }}
      onSubmit={() => submit(false)}
      onSaveAnyway={() => submit(true)}
      onChangeType={onBack}
    />
  );

  return (
    <FormProvider {...form}>
      <SidePanel
        title={title}
        className="addnew-panel addnew-panel--place"
        levelKey="step-3"
        onBack={onBack}
        onClose={onClose}
      >
        <div className="addnew-step">
          {narrow ? (
            <p className="addnew-step__hint">Tap the map where it is, then fill in the form.</p>
          ) : (
            <>
              <p className="addnew-step__lead">
                Adding {/^[aeiou]/i.test(SUPERTYPE_TEXT[supertype].name) ? 'an' : 'a'}{' '}
                <strong>{SUPERTYPE_TEXT[supertype].name.toLowerCase()}</strong>: {category.name}.
              </p>
              <p className="addnew-step__hint">
                Click the map where it is (or drag the marker), then fill in the form beside the marker.
              </p>
            </>
          )}
          {!narrow && (
            <div className="addnew-actions">
              <button type="button" className="xp-button" onClick={onBack}>
                Back
              </button>
              <button
                type="button"
                className="xp-button xp-button--primary"
                onClick={() => setFocus('title')}
              >
                Go to the form
              </button>
            </div>
          )}
        </div>
        {narrow && addNewForm}
      </SidePanel>
      {!narrow && createPortal(addNewForm, popupNode)}
    </FormProvider>
  );
}

function toLatLon(at: { lng: number; lat: number } | null): { lat: number; lon: number } | null {
  return at === null ? null : { lat: at.lat, lon: at.lng };
}
