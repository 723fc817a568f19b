import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { buildAddress, type AddNewSupertype, type Route } from '../../../shared/address';
import { findCategory } from '../../../shared/domain/categories';
import { ADD_NEW_SUPERTYPES } from '../../../shared/domain/supertypes';
import { isLevelState } from '../../shell/navigation';
import { useDocumentTitle, useShell } from '../../shell/context';
import { SidePanel } from '../../shell/SidePanel';
import { addNewStep } from '../../shell/viewMode';
import { PlaceStep } from './PlaceStep';
import { SUPERTYPE_TEXT } from './supertypeText';
import { TypeStep } from './TypeStep';

type AddNewRoute = Extract<Route, { screen: 'add-new' }>;

export const stepTitle = (step: 1 | 2 | 3) => `Add a new XPoint · Step ${step} of 3`;

/** Moving between the steps: forward opens the next level, back returns to the step the address names before. */
export interface StepNavigation {
  forward(to: string): void;
  /** Goes to `to`: back in history when that is where this step came from, else straight there. */
  backTo(to: string): void;
  close(): void;
}

function useStepNavigation(): StepNavigation {
  const { navigation } = useShell();
  const navigate = useNavigate();
  const location = useLocation();
  const from = isLevelState(location.state) ? location.state.xpFrom : null;
  const backTo = useCallback(
    (to: string) => {
      if (from === to) void navigate(-1);
      else void navigate(`${to}${window.location.hash}`);
    },
    [from, navigate],
  );
  return useMemo(
    () => ({ forward: navigation.openLevel, backTo, close: navigation.toMap }),
    [navigation.openLevel, navigation.toMap, backTo],
  );
}

/**
 * The add-new flow (map-and-search §2, §4): /new picks the supertype, /new/{supertype} the type,
 * /new/{supertype}/{type} the place and the details. The address is the state: it pre-selects the
 * supertype and type, and back and forward move between the steps.
 */
export default function AddNewPanel({ route }: { route: AddNewRoute }) {
  const steps = useStepNavigation();
  const { navigation } = useShell();
  const step = addNewStep(route);
  useDocumentTitle(stepTitle(step));

  if (route.supertype === undefined) {
    return (
      <SidePanel
        title={stepTitle(1)}
        className="addnew-panel"
        levelKey="step-1"
        onBack={navigation.canGoBack ? navigation.back : undefined}
        onClose={steps.close}
      >
        <SupertypeStep
          onChoose={(supertype) => steps.forward(buildAddress({ screen: 'add-new', supertype }))}
        />
      </SidePanel>
    );
  }

  const supertype = route.supertype;
  const stepOne = buildAddress({ screen: 'add-new' });
  const stepTwo = buildAddress({ screen: 'add-new', supertype });
  const category = route.type === undefined ? undefined : findCategory(supertype, route.type);
  if (category === undefined) {
    return (
      <SidePanel
        title={stepTitle(2)}
        className="addnew-panel"
        levelKey={`step-2-${supertype}`}
        onBack={() => steps.backTo(stepOne)}
        onClose={steps.close}
      >
        <TypeStep
          supertype={supertype}
          unknownType={route.type}
          onNext={(type) => steps.forward(buildAddress({ screen: 'add-new', supertype, type }))}
          onBack={() => steps.backTo(stepOne)}
        />
      </SidePanel>
    );
  }
  return (
    <PlaceStep
      key={`${supertype}/${category.key}`}
      title={stepTitle(3)}
      supertype={supertype}
      category={category}
      onBack={() => steps.backTo(stepTwo)}
      onClose={steps.close}
    />
  );
}

/** Step 1: what kind of place this is, as four large choices. */
function SupertypeStep({ onChoose }: { onChoose(supertype: AddNewSupertype): void }) {
  return (
    <div className="addnew-step">
      <p className="addnew-step__lead">What would you like to put on the map?</p>
      <ul className="addnew-supertypes">
        {ADD_NEW_SUPERTYPES.map((supertype) => (
          <li key={supertype}>
            <button type="button" className="addnew-supertype" onClick={() => onChoose(supertype)}>
              <span className="addnew-supertype__name">{SUPERTYPE_TEXT[supertype].name}</span>
              <span className="addnew-supertype__hint">{SUPERTYPE_TEXT[supertype].hint}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
