import type { AddNewSupertype } from '../../../shared/address';

/** How the add-new flow names each supertype a visitor may add, and what it is for. */
export const SUPERTYPE_TEXT: Record<AddNewSupertype, { name: string; hint: string }> = {
  virtualstore: {
    name: 'Virtual store',
    hint: 'An online shop, an app, a website or a delivery service.',
  },
  service: {
    name: 'Service',
    hint: 'Someone offering a service here: a plumber, a tutor, a dog walker.',
  },
  experience: {
    name: 'Experience',
    hint: 'Something to do: a tour, a class, a day out.',
  },
  rental: {
    name: 'Rental',
    hint: 'Something to rent: a room, a car, a boat, tools.',
  },
};
