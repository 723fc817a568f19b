import { describe, expect, it } from 'vitest';
import { categoriesFor } from '../../../shared/domain/categories';
import { COMMON_TYPE_COUNT, commonTypes, exactType, foldText, visibleTypes } from './typeChoice';

const services = categoriesFor('service');
const stores = categoriesFor('virtualstore');
const keys = (list: readonly { key: string }[]) => list.map((category) => category.key);

describe('the type list of add-new step 2', () => {
  it('shows the common types by default, the catch-all among them, and every type with show all', () => {
    const common = visibleTypes(services, '', false);
    expect(common).toHaveLength(COMMON_TYPE_COUNT);
    expect(keys(common)).toContain('custom');
    expect(keys(common)[0]).toBe('babysitting');
    expect(visibleTypes(services, '', true)).toHaveLength(services.length);
    // a short list is shown whole
    expect(keys(commonTypes(stores))).toEqual([
      'application',
      'delivery_service',
      'online_shop',
      'website',
      'custom_vs',
    ]);
  });

  it('filters every type by what is typed, whatever the toggle says', () => {
    expect(keys(visibleTypes(services, 'teach', false))).toEqual(['language_teacher', 'music_teacher']);
    // Tutoring is not among the common types, typing still finds it
    expect(keys(commonTypes(services))).not.toContain('tutoring');
    expect(keys(visibleTypes(services, 'TUTOR', false))).toEqual(['tutoring']);
    // keys match as well as names, punctuation aside
    expect(keys(visibleTypes(categoriesFor('rental'), 'e-bike', false))).toEqual(['e_bike']);
    expect(visibleTypes(services, 'spaceship', true)).toEqual([]);
  });

  it("matches a type's other words after its name (issue 21: people's words)", () => {
    // the rental type is called 'Bike': 'bicycle' is among its terms
    expect(keys(visibleTypes(categoriesFor('rental'), 'bicycle', false))).toEqual(['bike', 'e_bike']);
    // a phrase that is one of the café's terms, and a word in one
    expect(keys(visibleTypes(categoriesFor('business'), 'coffee shop', false))).toEqual(['cafe']);
    expect(keys(visibleTypes(categoriesFor('business'), 'espresso', false))).toContain('cafe');
    // the type named Drugstore first, then the pharmacy whose terms say drugstore
    const drugstore = keys(visibleTypes(categoriesFor('business'), 'drugstore', false));
    expect(drugstore[0]).toBe('chemist');
    expect(drugstore).toContain('pharmacy');
  });

  it('keeps the selected type listed when the filter or the toggle would hide it', () => {
    expect(keys(visibleTypes(services, '', false, 'tutoring'))).toContain('tutoring');
    expect(keys(visibleTypes(services, 'plumb', false, 'tutoring'))).toEqual(['plumber', 'tutoring']);
  });

  it('selects on an exact name or key only', () => {
    expect(exactType(services, 'plumber')?.key).toBe('plumber');
    expect(exactType(services, '  Dog walking ')?.key).toBe('dog_walking');
    expect(exactType(services, 'dog_walking')?.key).toBe('dog_walking');
    expect(exactType(services, 'plumb')).toBeUndefined();
    expect(exactType(services, '')).toBeUndefined();
    expect(exactType(categoriesFor('experience'), 'Wine Tasting')?.key).toBe('wine_tasting_experience');
  });

  it('folds accents, case and punctuation', () => {
    expect(foldText('Café--Tour ')).toBe('cafe tour');
  });
});
