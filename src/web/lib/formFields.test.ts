import { describe, expect, it } from 'vitest';
import { formFields } from './api';

describe('form fields', () => {
  it('writes nested objects as bracketed fields and leaves out what is missing', () => {
    const fields = formFields({
      q: 'café & co',
      maxresults: 10,
      includeevents: true,
      southwest: { lat: 40.7, lon: -74.02 },
      nothing: null,
    });
    expect(fields.toString()).toBe(
      'q=caf%C3%A9+%26+co&maxresults=10&includeevents=true&southwest%5Blat%5D=40.7&southwest%5Blon%5D=-74.02',
    );
  });
});
