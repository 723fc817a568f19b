import { useEffect, useRef, useState } from 'react';
import { useCombobox } from 'downshift';
import { Link, useNavigate } from 'react-router';
import { buildAddress, SEARCH_SUPERTYPES, type SearchSupertype } from '../../../shared/address';
import type { Suggestion } from '../../../shared/api/search';
import { firstPaintInput, forgetFirstPaintInput } from '../../ssr/firstPaintInput';
import { visibleBounds } from '../../map/mapHandle';
import { useShell } from '../../shell/context';
import { fetchSuggestions } from './searchApi';
import { searchData, searchQueryOf } from './searchView';
import { SearchSubmit, SupertypeSelect } from './SearchFormParts';
import './search.css';

type SuggestState =
  | { status: 'idle' }
  | { status: 'ready'; for: string; items: Suggestion[] }
  | { status: 'error'; message: string };

/**
 * The search form (map-and-search §2, §4): keywords with as-you-type suggestions (a downshift
 * combobox: arrows, Enter, Escape, announced to screen readers) and the supertype filter. Every
 * keystroke asks anew (no cached answers), only for non-empty input, and an answer for older input
 * never replaces a newer one. Submitting stores the bounds and supertype in the address (§2), which
 * runs the paged search. The box shows the address's keywords, so map mode empties it (§4).
 */
export function SearchForm({ onSuggestionsOpen }: { onSuggestionsOpen(open: boolean): void }) {
  const { route, navigation } = useShell();
  const navigate = useNavigate();
  const searching = route.screen === 'map-search' || route.screen === 'landing-search';
  const fromAddress = searching ? searchQueryOf(route.keywords, route.supertype, route.data) : null;
  // what was typed into the server's first paint, if anything, else the address's search
  const typed = firstPaintInput();
  const [input, setInput] = useState(typed?.keywords || (fromAddress?.keywords ?? ''));
  const typedSupertype = SEARCH_SUPERTYPES.find((name) => name === typed?.supertype);
  const [supertype, setSupertype] = useState<SearchSupertype | ''>(
    typedSupertype ?? fromAddress?.supertype ?? '',
  );
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (typed === null) return;
    // after the frame: the painted level's heading takes focus as it mounts, but the visitor was typing
    if (typed.focused)
      requestAnimationFrame(() =>
        formRef.current?.querySelector<HTMLInputElement>('.search-form__input')?.focus(),
      );
    forgetFirstPaintInput();
    // once, on the first mount
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const [suggest, setSuggest] = useState<SuggestState>({ status: 'idle' });
  const latest = useRef<AbortController | null>(null);

  // the address is the state: a new search address (back, forward, a link) or map mode resets the box
  const addressKeywords = fromAddress?.keywords ?? '';
  const addressSupertype = fromAddress?.supertype ?? '';
  const [shown, setShown] = useState({ keywords: addressKeywords, supertype: addressSupertype });
  if (shown.keywords !== addressKeywords || shown.supertype !== addressSupertype) {
    setShown({ keywords: addressKeywords, supertype: addressSupertype });
    setInput(addressKeywords);
    setSupertype(addressSupertype);
  }

  const ask = (text: string) => {
    latest.current?.abort();
    const q = text.trim();
    if (q === '') {
      latest.current = null;
      setSuggest({ status: 'idle' });
      return;
    }
    const controller = new AbortController();
    latest.current = controller;
    fetchSuggestions(q, visibleBounds(), controller.signal).then(
      (items) => {
        if (latest.current === controller) setSuggest({ status: 'ready', for: q, items });
      },
      (error: unknown) => {
        if (latest.current !== controller || controller.signal.aborted) return;
        setSuggest({ status: 'error', message: error instanceof Error ? error.message : String(error) });
      },
    );
  };
  useEffect(() => () => latest.current?.abort(), []);

  const items = suggest.status === 'ready' ? suggest.items : [];
  const combobox = useCombobox<Suggestion>({
    items,
    inputValue: input,
    itemToString: (item) => item?.title ?? '',
    // typing is taken in the input's own change event (below); this hears downshift's other changes
    onInputValueChange: ({ inputValue, type }) => {
      if (type !== useCombobox.stateChangeTypes.InputChange) setInput(inputValue);
    },
    onSelectedItemChange: ({ selectedItem }) => {
      if (selectedItem === null || selectedItem === undefined) return;
      latest.current?.abort();
      setSuggest({ status: 'idle' });
      navigation.openLevel(selectedItem.hotpointclickurl);
    },
    stateReducer: (_state, { type, changes }) =>
      // a picked suggestion opens its place; the box keeps what was typed
      type === useCombobox.stateChangeTypes.InputKeyDownEnter ||
      type === useCombobox.stateChangeTypes.ItemClick
        ? { ...changes, inputValue: input }
        : changes,
  });
  const inputProps = combobox.getInputProps({
    onKeyDown: (event) => {
      // Enter with no suggestion chosen submits the search; downshift would swallow it
      if (event.key === 'Enter' && combobox.highlightedIndex < 0)
        (event.nativeEvent as KeyboardEvent & { preventDownshiftDefault?: boolean }).preventDownshiftDefault =
          true;
    },
  });
  const open = combobox.isOpen && input.trim() !== '' && suggest.status !== 'idle';
  useEffect(() => onSuggestionsOpen(open), [open, onSuggestionsOpen]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const keywords = input.trim();
    // a supertype alone lists that supertype in the map's bounds; nothing at all searches nothing
    if (keywords === '' && supertype === '') return;
    latest.current?.abort();
    setSuggest({ status: 'idle' });
    combobox.closeMenu();
    const bounds = visibleBounds();
    const data = searchData({
      keywords,
      supertype: supertype === '' ? null : supertype,
      pageNumber: 1,
      pageSize: fromAddress?.pageSize ?? 12,
      ...(bounds ?? {}),
    });
    void navigate(`${buildAddress({ screen: 'map-search', keywords, data })}${window.location.hash}`);
  };

  return (
    <form ref={formRef} className="search-form" role="search" onSubmit={submit}>
      <SupertypeSelect value={supertype} onChange={setSupertype} />
      <div className="search-form__box">
        <label className="visually-hidden" {...combobox.getLabelProps()}>
          Search places
        </label>
        <input
          className="search-form__input"
          type="search"
          placeholder="Search places"
          maxLength={200}
          {...inputProps}
          // Each keystroke updates the box in its own event (issue 21, item 8). Downshift reports a
          // typed value in an effect after its render; on a page still busy loading the map, the next
          // keystroke came first, React put the box back to the stale value, and letters were lost.
          onChange={(event) => {
            const value = event.currentTarget.value;
            setInput(value);
            ask(value);
            inputProps.onChange?.(event);
          }}
        />
        <ul className="search-form__suggestions" hidden={!open} {...combobox.getMenuProps()}>
          {open &&
            items.map((item, index) => (
              <li
                key={`${item.id}:${index}`}
                className={
                  index === combobox.highlightedIndex ? 'suggestion suggestion--active' : 'suggestion'
                }
                {...combobox.getItemProps({ item, index })}
              >
                <span className="suggestion__title">{item.title}</span>
                <span className="suggestion__meta">
                  {[item.businesstype.replaceAll('_', ' '), item.address].filter(Boolean).join(' · ')}
                </span>
                {item.currentevent && (
                  <span className="suggestion__event">Now: {item.currentevent.title}</span>
                )}
                {!item.currentevent && item.upcomingevent && (
                  <span className="suggestion__event">Soon: {item.upcomingevent.title}</span>
                )}
              </li>
            ))}
        </ul>
        {open && suggest.status === 'ready' && items.length === 0 && (
          // a press on the notice keeps the focus in the box, so the notice stays until its link is followed
          <div className="search-form__empty" role="status" onMouseDown={(event) => event.preventDefault()}>
            Nothing matches “{suggest.for}”. <Link to="/new">Add New XPoint</Link>
          </div>
        )}
        {open && suggest.status === 'error' && (
          <div className="search-form__empty" role="alert">
            {suggest.message}
          </div>
        )}
      </div>
      <SearchSubmit />
    </form>
  );
}
