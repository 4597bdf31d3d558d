/* global AudioWorkletProcessor, registerProcessor, sampleRate */
// Audio worklet for the live transcript: the microphone's samples as 16 kHz mono 16-bit PCM, posted
// to the page in 100 ms frames. Resamples by linear interpolation when the context runs at another rate.
const TARGET_RATE = 16000;
const FRAME = 1600;

class PcmCapture extends AudioWorkletProcessor {
  constructor() {
    super();
    this.step = sampleRate / TARGET_RATE;
    this.position = 0;
    this.previous = 0;
    this.frame = new Int16Array(FRAME);
    this.filled = 0;
  }

  process(inputs) {
    const channels = inputs[0];
    if (!channels || channels.length === 0) return true;
    // Two sources (microphone and a shared tab) are heard together: their average.
    const channel = channels.length === 1 ? channels[0] : this.mix(channels);
    // `position` walks the input in steps of one output sample; -1 is the last sample of the previous block.
    while (this.position < channel.length) {
      const index = Math.floor(this.position);
      const fraction = this.position - index;
      const a = index < 0 ? this.previous : channel[index];
      const b = index + 1 < channel.length ? channel[index + 1] : channel[channel.length - 1];
      const sample = Math.max(-1, Math.min(1, a + (b - a) * fraction));
      this.frame[this.filled++] = sample < 0 ? sample * 0x8000 : sample * 0x7fff;
      if (this.filled === FRAME) {
        this.port.postMessage(this.frame.buffer, [this.frame.buffer]);
        this.frame = new Int16Array(FRAME);
        this.filled = 0;
      }
      this.position += this.step;
    }
    this.position -= channel.length;
    this.previous = channel[channel.length - 1];
    return true;
  }
}

PcmCapture.prototype.mix = function mix(channels) {
  const length = channels[0].length;
  if (!this.mixed || this.mixed.length !== length) this.mixed = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    let sum = 0;
    for (const channel of channels) sum += channel[i];
    this.mixed[i] = sum / channels.length;
  }
  return this.mixed;
};

registerProcessor('pcm-capture', PcmCapture);
