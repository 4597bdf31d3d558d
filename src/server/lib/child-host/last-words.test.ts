import { describe, expect, it } from 'vitest';
import { lastWords } from './last-words.ts';

describe('lastWords (why a host process ended)', () => {
  it('takes sherpa’s last located message, without its source path, summaries or help text', () => {
    expect(lastWords("/shared/sherpa-onnx/csrc/offline-transducer-nemo-model.cc:InitEncoder:204 'vocab_size' does not exist in the metadata\n")).toBe(
      "'vocab_size' does not exist in the metadata",
    );
    expect(
      lastWords(
        "/shared/sherpa-onnx/csrc/offline-model-config.cc:Validate:105 tokens: '/x/tokens.txt' does not exist\n/shared/sherpa-onnx/c-api/c-api.cc:SherpaOnnxCreateOfflineRecognizer:698 Errors in config\n",
      ),
    ).toBe("tokens: '/x/tokens.txt' does not exist");
    expect(
      lastWords(
        '/shared/sherpa-onnx/csrc/offline-recognizer-impl.cc:Create:358 No model_type in the metadata!\n\nPlease refer to the following URLs to add metadata\n(0) Transducer models from icefall\n    https://github.com/k2-fsa/icefall\n',
      ),
    ).toBe('No model_type in the metadata!');
    expect(lastWords("terminate called after throwing an instance of 'Ort::Exception'\n  what():  Load model from x failed:Protobuf parsing failed.\n")).toBe(
      'Load model from x failed:Protobuf parsing failed.',
    );
    expect(lastWords('')).toBe('');
  });
});
