import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { FormProvider, useForm, useWatch, type Path } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { EditablePoint } from '../../../shared/api/points';
import { ApiError } from '../../lib/api';
import { revealOnMap } from '../../map/mapHandle';
import { useFullScreenLoader } from '../../shell/FullScreenLoader';
import { useDocumentTitle, useShell } from '../../shell/context';
import { ErrorPanel, PanelLoader, SidePanel } from '../../shell/SidePanel';
import { parseCoordinate } from '../addnew/addNewForm';
import { useSession } from '../accounts/session';
import { EDIT_ERROR_CODES, createPointCopy, loadEditablePoint, updatePoint } from './editApi';
import { useRefusalFocus } from '../../ui/useRefusalFocus';
import {
  copyBody,
  editFormSchema,
  problemsFromServer,
  saveFailure,
  updateBody,
  valuesFromPoint,
  type EditValues,
  type Problems,
} from './editForm';
import { MediaEditor } from './MediaEditor';
import type { LivePlace } from './openingHoursLive';
import { PointEditForm } from './PointEditForm';
import './pointEdit.css';

/** What the edit and copy forms say to people who may not use them (§6). */
export const EDIT_MESSAGES = {
  signIn: 'You need to sign in to edit this XPoint.',
  signInCopy: 'You need to sign in to copy this help request.',
  forbidden:
    'Only the owner of this XPoint, its consultant or an admin can edit it. You can still see it on its page.',
  forbiddenCopy: 'Only the owner of this help request, its consultant or an admin can copy it.',
  conflict:
    'Someone else saved this XPoint after you opened it, so your changes were not saved and nothing was overwritten. Reload to see their version, then make your changes again.',
  discard: 'Discard your changes?',
} as const;

/** §9 mobile breakpoint: below it the form fills the screen. */
const NARROW_QUERY = '(max-width: 600px)';

export type EditMode = 'edit' | 'copy';

export interface PointEditPanelProps {
  id: string;
  /** where to return after saving or cancelling (§2: edit and copy links carry it). */
  successUrl?: string | undefined;
  mode: EditMode;
}

type Load =
  | { status: 'loading' }
  | { status: 'ready'; point: EditablePoint }
  | { status: 'error'; code: number; message: string };

/** GET /v1/xpoint/{id}/edit, again whenever `generation` moves on (a reload after a conflict). */
function useEditablePoint(id: string, generation: number): Load {
  const [load, setLoad] = useState<{ key: string; value: Load }>({ key: '', value: { status: 'loading' } });
  const key = `${id}#${generation}`;
  useEffect(() => {
    const controller = new AbortController();
    loadEditablePoint(id, controller.signal).then(
      (point) => setLoad({ key, value: { status: 'ready', point } }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setLoad({
          key,
          value: {
            status: 'error',
            code: error instanceof ApiError ? error.code : -1,
            message: error instanceof Error ? error.message : String(error),
          },
        });
      },
    );
    return () => controller.abort();
  }, [id, key]);
  return load.key === key ? load.value : { status: 'loading' };
}

/**
 * The point edit form (issue 8; map-and-search §2 /{prefix}/{id}/Edit, /MeOnMap/Edit?id=,
 * /MyExperience/Edit?id=, /MyRental/Edit?id=) and the copy-to-new form of help requests
 * (/h/{id}/CopyToNew). Loads the point's editable fields for its owner, consultant or an admin
 * (others see why they cannot), and saves against the version it loaded: a save over someone
 * else's newer one is refused by the server and said so here, never silently overwritten.
 */
export function PointEditPanel(props: PointEditPanelProps) {
  const { user, loading, requireAccount } = useSession();
  const { navigation } = useShell();
  const copy = props.mode === 'copy';
  const title = copy ? 'Copy to a new help request' : 'Edit XPoint';
  const back = navigation.canGoBack ? navigation.back : undefined;

  if (loading)
    return (
      <SidePanel title={title} className="point-edit" onClose={navigation.toMap} onBack={back}>
        <PanelLoader />
      </SidePanel>
    );
  if (user === null) {
    const reason = copy ? EDIT_MESSAGES.signInCopy : EDIT_MESSAGES.signIn;
    return (
      <SidePanel
        title={title}
        className="point-edit"
        onClose={navigation.toMap}
        onBack={back}
        levelKey="signin"
      >
        <div className="point-edit__notice" role="alert">
          <p>{reason}</p>
          <button
            type="button"
            className="xp-button xp-button--primary"
            onClick={() => requireAccount(reason)}
          >
            Sign in
          </button>
        </div>
      </SidePanel>
    );
  }
  // signing in as someone else loads the point again, with their rights
  return <EditLevel key={user.id} {...props} />;
}

function EditLevel({ id, successUrl, mode }: PointEditPanelProps) {
  const { navigation } = useShell();
  const { requireAccount } = useSession();
  const [generation, setGeneration] = useState(0);
  const load = useEditablePoint(id, generation);
  // closing the panel (×, Escape) with unsaved changes asks first, like Cancel
  const dirty = useRef(false);
  const close = () => {
    if (dirty.current && !window.confirm(EDIT_MESSAGES.discard)) return;
    navigation.toMap();
  };
  const navigate = useNavigate();
  const copy = mode === 'copy';
  // back returns to the level before, else to the page the link came from (successUrl)
  const backTo = navigation.canGoBack
    ? navigation.back
    : successUrl !== undefined
      ? () => void navigate(`${successUrl}${window.location.hash}`)
      : undefined;
  const back =
    backTo === undefined
      ? undefined
      : () => {
          if (dirty.current && !window.confirm(EDIT_MESSAGES.discard)) return;
          backTo();
        };
  const panelTitle =
    load.status === 'ready'
      ? copy
        ? `Copy “${load.point.title}”`
        : `Edit “${load.point.title}”`
      : copy
        ? 'Copy to a new help request'
        : 'Edit XPoint';
  useDocumentTitle(panelTitle);

  let body;
  if (load.status === 'loading') body = <PanelLoader label="Loading the XPoint…" />;
  else if (load.status === 'error' && load.code === EDIT_ERROR_CODES.signIn) {
    const reason = copy ? EDIT_MESSAGES.signInCopy : EDIT_MESSAGES.signIn;
    body = (
      <div className="point-edit__notice" role="alert">
        <p>{reason}</p>
        <button type="button" className="xp-button xp-button--primary" onClick={() => requireAccount(reason)}>
          Sign in
        </button>
      </div>
    );
  } else if (load.status === 'error' && load.code === EDIT_ERROR_CODES.forbidden)
    body = (
      <div className="point-edit__notice point-edit__notice--denied" role="alert">
        <p>{copy ? EDIT_MESSAGES.forbiddenCopy : EDIT_MESSAGES.forbidden}</p>
        <a className="xp-button" href={successUrl ?? `/x/${encodeURIComponent(id)}`}>
          Open the XPoint
        </a>
      </div>
    );
  else if (load.status === 'error') body = <ErrorPanel message={load.message} />;
  else
    body = (
      <EditBody
        key={`${load.point.id}@${load.point.version}#${generation}`}
        point={load.point}
        mode={mode}
        successUrl={successUrl}
        onReload={() => setGeneration((n) => n + 1)}
        onDirty={(changed) => {
          dirty.current = changed;
        }}
      />
    );

  return (
    <SidePanel
      title={panelTitle}
      className="point-edit"
      onClose={close}
      onBack={back}
      levelKey={`${id}-${load.status}`}
    >
      {body}
    </SidePanel>
  );
}

/** Two-letter codes only: the edit data's country is what the owner typed, often a name. */
function countryCodeOf(country: string): string | null {
  return /^[A-Za-z]{2}$/.test(country.trim()) ? country.trim() : null;
}

/** Where the point is as the form has it now, for the opening hours' preview and check. */
function placeOf(point: EditablePoint, values: Pick<EditValues, 'lat' | 'lon' | 'country'>): LivePlace {
  return {
    lat: parseCoordinate(values.lat, 'lat') ?? point.lat,
    lon: parseCoordinate(values.lon, 'lon') ?? point.lon,
    timeZone: point.time_zone_name,
    countryCode: countryCodeOf(values.country),
  };
}

function EditBody({
  point,
  mode,
  successUrl,
  onReload,
  onDirty,
}: {
  point: EditablePoint;
  mode: EditMode;
  successUrl: string | undefined;
  onReload(): void;
  onDirty(changed: boolean): void;
}) {
  const { user, requireAccount } = useSession();
  const navigate = useNavigate();
  const loader = useFullScreenLoader();
  const copy = mode === 'copy';
  const loaded = useMemo(() => valuesFromPoint(point), [point]);
  const form = useForm<EditValues>({
    defaultValues: loaded,
    // the body a save would send, checked with the server's contract (editForm.ts)
    resolver: zodResolver(editFormSchema(point, loaded, copy, (values) => placeOf(point, values))),
    shouldFocusError: false,
  });
  const { handleSubmit, setError, control } = form;
  const formRef = useRefusalFocus('.point-edit__form-error', form.formState.submitCount);
  const [formError, setFormError] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  // media uploads move the version on; the save carries the latest
  const version = useRef(point.version);
  // the point's writes from this form, one at a time: an upload still on its way when Save is
  // pressed finishes first, so the save carries the version it answered (not a false conflict)
  const writes = useRef<Promise<void>>(Promise.resolve());
  const enqueue = useCallback((write: () => Promise<void>) => {
    writes.current = writes.current.then(write);
    return writes.current;
  }, []);
  const conflictRef = useRef<HTMLDivElement>(null);

  // opened from its address, the form shows the place beside it; on phones the form covers the map
  useEffect(() => {
    if (!window.matchMedia(NARROW_QUERY).matches) revealOnMap(point.lon, point.lat);
  }, [point.lon, point.lat]);

  // the refusal is at the top of a long form: bring it into view where the save button was pressed
  useEffect(() => {
    if (conflict) conflictRef.current?.focus();
  }, [conflict]);

  const [lat, lon, country] = useWatch({ control, name: ['lat', 'lon', 'country'] });
  const place = useMemo(() => placeOf(point, { lat, lon, country }), [point, lat, lon, country]);

  const returnTo = useCallback(
    (url: string) => void navigate(`${url}${window.location.hash}`, { replace: true }),
    [navigate],
  );
  const { isDirty } = form.formState;
  useEffect(() => onDirty(isDirty), [isDirty, onDirty]);
  const cancel = () => {
    if (isDirty && !window.confirm(EDIT_MESSAGES.discard)) return;
    returnTo(successUrl ?? point.url);
  };

  /** A refusal shown where it belongs: beside the fields it names, else at the top of the form. */
  const refuse = (problems: Problems) => {
    for (const [path, message] of Object.entries(problems.fields))
      setError(path as Path<EditValues>, { message });
    setFormError(problems.form);
  };

  const save = async (values: EditValues) => {
    await writes.current;
    const body = updateBody(
      { id: point.id, supertype: point.supertype, version: version.current },
      loaded,
      values,
    );
    if (Object.keys(body).length === 2) {
      // nothing changed: nothing to write
      returnTo(successUrl ?? point.url);
      return;
    }
    try {
      const saved = await loader.run(updatePoint(body), 'Saving your changes…');
      returnTo(successUrl ?? saved.url);
    } catch (error) {
      const failure = saveFailure(error);
      if (failure.kind === 'conflict') {
        setConflict(true);
        return;
      }
      refuse(failure.problems);
      // the session ended while editing: signing in again here keeps the form as it is
      if (failure.kind === 'signIn') requireAccount(EDIT_MESSAGES.signIn);
    }
  };

  const create = async (values: EditValues) => {
    try {
      const created = await loader.run(
        createPointCopy(copyBody(point.supertype, values)),
        'Creating the copy…',
      );
      returnTo(created.url);
    } catch (error) {
      refuse(problemsFromServer(error));
    }
  };

  const onValid = (values: EditValues) => {
    setFormError(null);
    return copy ? create(values) : save(values);
  };
  const onInvalid = () => setFormError(null);

  const canSetConsulting = user !== null && (user.isAdmin || user.username === point.owner_username);
  const notices = (
    <>
      {copy && (
        <p className="point-edit__intro">
          A new help request, prefilled from this one at the same place. Change what differs and save; the
          original stays as it is. Pictures are not copied.
        </p>
      )}
      {conflict && (
        <div className="point-edit__conflict" role="alert" tabIndex={-1} ref={conflictRef}>
          <p>{EDIT_MESSAGES.conflict}</p>
          <button type="button" className="xp-button xp-button--primary" onClick={onReload}>
            Reload the current version
          </button>
        </div>
      )}
    </>
  );

  return (
    <FormProvider {...form}>
      <PointEditForm
        supertype={point.supertype}
        place={place}
        canSetConsulting={copy || canSetConsulting}
        notices={notices}
        formError={formError}
        formRef={formRef}
        media={
          copy ? undefined : (
            <MediaEditor
              point={point}
              version={() => version.current}
              onVersion={(next) => {
                version.current = next;
              }}
              onConflict={() => setConflict(true)}
              enqueue={enqueue}
            />
          )
        }
        submitLabel={copy ? 'Create the copy' : 'Save changes'}
        onSubmit={() => void handleSubmit(onValid, onInvalid)()}
        onCancel={cancel}
      />
    </FormProvider>
  );
}
