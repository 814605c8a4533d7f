export { ragoEntry, createRagoMethod, RagoOptionsSchema, type RagoOptions } from './rago-method.ts';
