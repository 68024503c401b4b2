export * from './edge-certificates';
export * from './edge-client';
export * from './edge-app';
export * from './loopback-origin';
export * from './websocket-frames';
