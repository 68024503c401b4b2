import { frame, TcpFraming } from './tcp-framing';

describe('TcpFraming', () => {
  it('gives back whole messages, however the stream is cut', () => {
    const stream = Buffer.concat([frame(Buffer.from('first')), frame(Buffer.from('second')), frame(Buffer.alloc(0))]);
    for (let cut = 0; cut <= stream.length; cut++) {
      const framing = new TcpFraming();
      const messages = [...framing.push(stream.subarray(0, cut)), ...framing.push(stream.subarray(cut))];
      expect(messages.map(String)).toEqual(['first', 'second', '']);
    }
  });
});
