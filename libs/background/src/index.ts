export { BackgroundLoop, type BackgroundLoopOptions } from './background-loop';
