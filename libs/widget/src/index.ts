export * from './widget-cors';
export * from './widget.module';
