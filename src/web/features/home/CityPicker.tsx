import { useQuery } from '@tanstack/react-query';
import { useCombobox } from 'downshift';
import { useEffect, useId, useRef, useState } from 'react';
import { isUsableCityOption, type CityOption } from '../../../shared/api/home';
import { errorText } from '../../lib/query';
import { Dialog } from '../../ui/Dialog';
import { citiesStartingWith, topDestinationsQuery } from './homeApi';

type Suggest =
  | { status: 'idle' }
  | { status: 'ready'; for: string; items: CityOption[] }
  | { status: 'error'; message: string };

/**
 * The top-destinations modal (social §2): the top cities as buttons, and the city autocomplete as a
 * downshift combobox (POST /v1/locations/startingwith on every keystroke from 1 character; arrows
 * move, Enter picks, Escape closes the list; the list is announced as a listbox). No match says
 * 'No results found' (§8). Picking a city hands it to `onPick`; the owner closes the dialog.
 */
export function CityPicker({ onPick, onClose }: { onPick(city: CityOption): void; onClose(): void }) {
  const titleId = useId();
  const top = useQuery(topDestinationsQuery);
  const [suggest, setSuggest] = useState<Suggest>({ status: 'idle' });
  const latest = useRef<AbortController | null>(null);
  useEffect(() => () => latest.current?.abort(), []);

  const ask = (text: string) => {
    latest.current?.abort();
    if (text.trim() === '') {
      setSuggest({ status: 'idle' });
      return;
    }
    const controller = new AbortController();
    latest.current = controller;
    citiesStartingWith(text, controller.signal).then(
      (items) => {
        if (latest.current === controller)
          setSuggest({ status: 'ready', for: text, items: items.filter(isUsableCityOption) });
      },
      (error: unknown) => {
        if (latest.current !== controller || controller.signal.aborted) return;
        setSuggest({ status: 'error', message: errorText(error) });
      },
    );
  };

  const items = suggest.status === 'ready' ? suggest.items : [];
  const combobox = useCombobox<CityOption>({
    items,
    itemToString: (item) => item?.city ?? '',
    // downshift keeps what is typed (a controlled value can drop a fast typist's keystroke)
    onInputValueChange: ({ inputValue, type }) => {
      if (type === useCombobox.stateChangeTypes.InputChange) ask(inputValue);
    },
    onSelectedItemChange: ({ selectedItem }) => {
      if (selectedItem) onPick(selectedItem);
    },
  });
  const open = combobox.isOpen && combobox.inputValue.trim() !== '' && suggest.status !== 'idle';

  return (
    <Dialog className="home-picker" labelledBy={titleId} onClose={onClose} initialFocus=".home-picker__input">
      <div className="xp-modal__head">
        <h2 id={titleId} className="xp-modal__title">
          Top destinations
        </h2>
        <button type="button" className="xp-modal__close" aria-label="Close" title="Close" onClick={onClose}>
          ×
        </button>
      </div>
      <div className="home-picker__body">
        <div className="home-picker__search">
          <label className="home-picker__label" {...combobox.getLabelProps()}>
            Find a city
          </label>
          <input
            className="home-picker__input"
            type="search"
            placeholder="Type a city name"
            maxLength={100}
            autoComplete="off"
            {...combobox.getInputProps()}
          />
          <ul
            className="home-picker__options"
            hidden={!open || items.length === 0}
            {...combobox.getMenuProps()}
          >
            {open &&
              items.map((item, index) => (
                <li
                  key={item.id}
                  className={
                    index === combobox.highlightedIndex
                      ? 'home-picker__option home-picker__option--active'
                      : 'home-picker__option'
                  }
                  {...combobox.getItemProps({ item, index })}
                >
                  <span className="home-picker__city">{item.city}</span>
                  <span className="home-picker__where">
                    {[item.state, item.country].filter(Boolean).join(', ')}
                  </span>
                </li>
              ))}
          </ul>
          {open && suggest.status === 'ready' && items.length === 0 && (
            <p className="home-picker__empty" role="status">
              No results found
            </p>
          )}
          {open && suggest.status === 'error' && (
            <p className="home-picker__empty" role="alert">
              {suggest.message}
            </p>
          )}
        </div>
        <h3 className="home-picker__subtitle">Popular cities</h3>
        {top.status === 'pending' && <p role="status">Loading cities…</p>}
        {top.status === 'error' && <p role="alert">The cities could not be loaded: {errorText(top.error)}</p>}
        {top.data && (
          <ul className="home-picker__top">
            {top.data.filter(isUsableCityOption).map((city) => (
              <li key={city.id}>
                <button type="button" className="home-picker__destination" onClick={() => onPick(city)}>
                  <span className="home-picker__city">{city.city}</span>
                  <span className="home-picker__where">{city.country}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  );
}
