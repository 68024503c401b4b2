export { BackgroundLoop } from './background-loop';
