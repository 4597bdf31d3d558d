import onnxProto, { type onnx as Onnx } from 'onnx-proto';

/**
 * Building small real ONNX models in tests (the stand-ins for sherpa-onnx's speech and speaker
 * models that tests cannot download): value infos, tensors, attributes, and the encoded model.
 */

// A CommonJS module: its namespace comes as the default export under Node's ESM.
const { onnx } = onnxProto;

export const FLOAT = onnx.TensorProto.DataType.FLOAT;
export const INT64 = onnx.TensorProto.DataType.INT64;

type Dim = number | string;
/** A graph input or output: a tensor of `elemType` whose dimensions are sizes or named (free) ones. */
export const io = (name: string, elemType: number, dims: Dim[]): Onnx.IValueInfoProto => ({
  name,
  type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } } },
});
export const floats = (name: string, dims: number[], values: number[]): Onnx.ITensorProto => ({ name, dims, dataType: FLOAT, floatData: values });
export const int64s = (name: string, dims: number[], values: number[]): Onnx.ITensorProto => ({ name, dims, dataType: INT64, int64Data: values });
export const attrInts = (name: string, values: number[]): Onnx.IAttributeProto => ({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: values });
export const attrInt = (name: string, value: number): Onnx.IAttributeProto => ({ name, type: onnx.AttributeProto.AttributeType.INT, i: value });

/** The model file's bytes: opset 13, with `metadata` as the metadata properties sherpa-onnx reads. */
export function encodeModel(graph: Onnx.IGraphProto, metadata: Record<string, string | number> = {}): Uint8Array {
  return onnx.ModelProto.encode(
    onnx.ModelProto.create({
      irVersion: 7,
      opsetImport: [{ domain: '', version: 13 }],
      producerName: 'parley-tests',
      graph,
      metadataProps: Object.entries(metadata).map(([key, value]) => ({ key, value: String(value) })),
    }),
  ).finish();
}
