/** Display rules of the point and event panels, shared by the server's JSON and the browser's components. */
export * from './text';
export * from './numbers';
export * from './events';
export * from './opening-hours';
