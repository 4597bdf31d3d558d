/* global AudioWorkletProcessor, registerProcessor, sampleRate */
// Audio worklet for the live transcript: the recording's samples as 16 kHz 16-bit PCM, posted to the
// page in 100 ms frames. One channel per capture source (microphone, then a shared tab), interleaved,
// so the server can hear each source on its own. Resamples by linear interpolation when the context
// runs at another rate. Served as a file of its own so the CSP's script-src 'self' allows it.
const TARGET_RATE = 16000;
const FRAME = 1600;

class PcmCapture extends AudioWorkletProcessor {
  constructor(options) {
    super();
    this.channels = (options.processorOptions && options.processorOptions.channels) || 1;
    this.step = sampleRate / TARGET_RATE;
    this.position = 0;
    this.previous = new Float32Array(this.channels);
    this.frame = new Int16Array(FRAME * this.channels);
    this.filled = 0;
  }

  process(inputs) {
    const input = inputs[0];
    if (!input || input.length === 0) return true;
    const length = input[0].length;
    // `position` walks the input in steps of one output sample; -1 is the last sample of the previous block.
    while (this.position < length) {
      const index = Math.floor(this.position);
      const fraction = this.position - index;
      for (let c = 0; c < this.channels; c++) {
        const data = input[c];
        let sample = 0;
        if (data) {
          const a = index < 0 ? this.previous[c] : data[index];
          const b = index + 1 < length ? data[index + 1] : data[length - 1];
          sample = Math.max(-1, Math.min(1, a + (b - a) * fraction));
        }
        this.frame[this.filled * this.channels + c] = sample < 0 ? sample * 0x8000 : sample * 0x7fff;
      }
      this.filled++;
      if (this.filled === FRAME) {
        this.port.postMessage(this.frame.buffer, [this.frame.buffer]);
        this.frame = new Int16Array(FRAME * this.channels);
        this.filled = 0;
      }
      this.position += this.step;
    }
    this.position -= length;
    for (let c = 0; c < this.channels; c++) this.previous[c] = input[c] ? input[c][length - 1] : 0;
    return true;
  }
}

registerProcessor('pcm-capture', PcmCapture);
