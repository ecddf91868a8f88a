#!/usr/bin/python3
"""Malformed nodes of the converters that compose several relay ops (RNN,
Einsum, the scatters, TopK, losses, 1-d windows, ...): each model must be
rejected by relay-mlir-translate --import-onnx with exit status 1 and an
error naming the node and what is wrong, never a crash.

  /usr/bin/python3 bad_nodes.py TMPDIR PATH/TO/relay-mlir-translate
"""
import os
import subprocess
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper
import onnx

T = TensorProto.FLOAT


def vi(n, shape, t=T):
    return helper.make_tensor_value_info(n, t, shape)


def init(n, a):
    return numpy_helper.from_array(np.asarray(a), n)


def claimed(n, dims, values):
    """A float tensor whose dims claim more elements than float_data has
    (a corrupt model)."""
    t = TensorProto()
    t.name, t.data_type = n, TensorProto.FLOAT
    t.dims.extend(dims)
    t.float_data.extend(values)
    return t


cases = {
 'einsum_mismatch': ([helper.make_node('Einsum', ['a','b'], ['y'], equation='ij,jk->ik')], [vi('a',[2,3]), vi('b',[4,5])], []),
 'einsum_badout': ([helper.make_node('Einsum', ['a'], ['y'], equation='ij->k')], [vi('a',[2,3])], []),
 'einsum_rank': ([helper.make_node('Einsum', ['a'], ['y'], equation='ijk->i')], [vi('a',[2,3])], []),
 'einsum_chars': ([helper.make_node('Einsum', ['a'], ['y'], equation='i1->i')], [vi('a',[2,3])], []),
 'einsum_count': ([helper.make_node('Einsum', ['a','a'], ['y'], equation='ij->i')], [vi('a',[2,3])], []),
 'einsum_noeq': ([helper.make_node('Einsum', ['a'], ['y'])], [vi('a',[2,3])], []),
 'rnn_noR': ([helper.make_node('RNN', ['x','w'], ['y'], hidden_size=4)], [vi('x',[3,1,2])], [init('w', np.zeros((1,4,2),np.float32))]),
 'rnn_rank': ([helper.make_node('RNN', ['x','w','r'], ['y'], hidden_size=4)], [vi('x',[3,2])], [init('w', np.zeros((1,4,2),np.float32)), init('r', np.zeros((1,4,4),np.float32))]),
 'rnn_lens_bad': ([helper.make_node('RNN', ['x','w','r','','l'], ['y'], hidden_size=4)], [vi('x',[3,1,2])], [init('w', np.zeros((1,4,2),np.float32)), init('r', np.zeros((1,4,4),np.float32)), init('l', np.array([7], np.int32))]),
 'gru_int': ([helper.make_node('GRU', ['x','w','r'], ['y'], hidden_size=4)], [vi('x',[3,1,2], TensorProto.INT32)], [init('w', np.zeros((1,12,2),np.int32)), init('r', np.zeros((1,12,4),np.int32))]),
 'lstm_layout': ([helper.make_node('LSTM', ['x','w','r'], ['y'], hidden_size=4, layout=3)], [vi('x',[3,1,2])], [init('w', np.zeros((1,16,2),np.float32)), init('r', np.zeros((1,16,4),np.float32))]),
 'scatter_oob': ([helper.make_node('ScatterND', ['x','i','u'], ['y'])], [vi('x',[4,3]), vi('u',[1,3])], [init('i', np.array([[9]], np.int64))]),
 'scatter_shape': ([helper.make_node('ScatterND', ['x','i','u'], ['y'])], [vi('x',[4,3]), vi('u',[2,3])], [init('i', np.array([[1]], np.int64))]),
 'scatterel_oob': ([helper.make_node('ScatterElements', ['x','i','u'], ['y'], axis=1)], [vi('x',[2,3]), vi('u',[2,1])], [init('i', np.array([[5],[0]], np.int64))]),
 'gathernd_batch': ([helper.make_node('GatherND', ['x','i'], ['y'], batch_dims=3)], [vi('x',[2,3])], [init('i', np.array([[0]], np.int64))]),
 'topk_k': ([helper.make_node('TopK', ['x','k'], ['v','i'])], [vi('x',[2,3])], [init('k', np.array([9], np.int64))]),
 'topk_big': ([helper.make_node('TopK', ['x','k'], ['v','i'])], [vi('x',[2,300000])], [init('k', np.array([100], np.int64))]),
 'cumsum_axis': ([helper.make_node('CumSum', ['x','a'], ['y'])], [vi('x',[2,3])], [init('a', np.array(5, np.int64))]),
 'lrn_nosize': ([helper.make_node('LRN', ['x'], ['y'])], [vi('x',[1,3,4,4])], []),
 'lrn_rank': ([helper.make_node('LRN', ['x'], ['y'], size=3)], [vi('x',[3])], []),
 'hardmax_axis': ([helper.make_node('Hardmax', ['x'], ['y'], axis=5)], [vi('x',[2,3])], []),
 'eyelike_rank': ([helper.make_node('EyeLike', ['x'], ['y'])], [vi('x',[2,3,4])], []),
 'conv1d_pads': ([helper.make_node('Conv', ['x','w'], ['y'], pads=[1,1,1,1])], [vi('x',[1,2,8])], [init('w', np.zeros((3,2,3),np.float32))]),
 'conv1d_wrank': ([helper.make_node('Conv', ['x','w'], ['y'])], [vi('x',[1,2,8])], [init('w', np.zeros((3,2,3,3),np.float32))]),
 'convt_shape': ([helper.make_node('ConvTranspose', ['x','w'], ['y'], output_shape=[100, 100])], [vi('x',[1,2,4,4])], [init('w', np.zeros((2,3,3,3),np.float32))]),
 'pool1d_k': ([helper.make_node('MaxPool', ['x'], ['y'], kernel_shape=[3,3])], [vi('x',[1,2,8])], []),
 'pool_nok': ([helper.make_node('MaxPool', ['x'], ['y'])], [vi('x',[1,2,8,8])], []),
 'nll_weight': ([helper.make_node('NegativeLogLikelihoodLoss', ['x','t','w'], ['y'])], [vi('x',[3,5]), vi('t',[3], TensorProto.INT64)], [init('w', np.ones(4, np.float32))]),
 'sce_red': ([helper.make_node('SoftmaxCrossEntropyLoss', ['x','t'], ['y'], reduction='avg')], [vi('x',[3,5]), vi('t',[3], TensorProto.INT64)], []),
 'isinf_int': ([helper.make_node('IsInf', ['x'], ['y'])], [vi('x',[3], TensorProto.INT32)], []),
 'mvn_axes': ([helper.make_node('MeanVarianceNormalization', ['x'], ['y'], axes=[7])], [vi('x',[1,2,3,3])], []),
 'd2s_mode': ([helper.make_node('DepthToSpace', ['x'], ['y'], blocksize=2, mode='XYZ')], [vi('x',[1,4,2,2])], []),
 'onehot_depth': ([helper.make_node('OneHot', ['i','d','v'], ['y'])], [vi('i',[3], TensorProto.INT64)], [init('d', np.array(0, np.int64)), init('v', np.array([0,1], np.float32))]),
 # Found by relay-onnx-fuzzer: an axis of a scalar indexed its shape.
 'split_scalar': ([helper.make_node('Split', ['x'], ['a','b'], axis=0)], [vi('x',[])], []),
 'gather_scalar': ([helper.make_node('Gather', ['x','i'], ['y'])], [vi('x',[])], [init('i', np.array([0], np.int64))]),
 'topk_scalar': ([helper.make_node('TopK', ['x','k'], ['v','i'], axis=0)], [vi('x',[])], [init('k', np.array([1], np.int64))]),
 'squeeze_scalar': ([helper.make_node('Squeeze', ['x','a'], ['y'])], [vi('x',[])], [init('a', np.array([0], np.int64))]),
 'reshape_overflow': ([helper.make_node('Reshape', ['x','s'], ['y'])], [vi('x',[2,3])], [init('s', np.array([536870911, 68719476735, -1], np.int64))]),
 'tensor_claims': ([helper.make_node('Add', ['x','c'], ['y'])], [vi('x',[2])], [claimed('c', [10**7, 10**7], [1.0])]),
 'tensor_overflow': ([helper.make_node('Add', ['x','c'], ['y'])], [vi('x',[2])], [claimed('c', [2**40, 2**40], [1.0])]),
 'slice_scalar': ([helper.make_node('Slice', ['x','s','e','a'], ['y'])], [vi('x',[])], [init('s', np.array([0], np.int64)), init('e', np.array([1], np.int64)), init('a', np.array([0], np.int64))]),
 # Found by relay-onnx-fuzzer: a Split with no outputs divided by zero.
 'split_nooutputs': ([helper.make_node('Split', ['x'], [], axis=0), helper.make_node('Identity', ['x'], ['y'])], [vi('x',[6])], []),
 'split_negative': ([helper.make_node('Split', ['x','s'], ['a','b'], axis=0)], [vi('x',[6])], [init('s', np.array([8, -2], np.int64))]),
 'split_overflow': ([helper.make_node('Split', ['x','s'], ['a','b'], axis=0)], [vi('x',[6])], [init('s', np.array([2**62, 2**62], np.int64))]),
}

EXPECTED = {'einsum_mismatch': "einsum: label 'j' has size 3 in one operand and 4 in operand 1", 'einsum_badout': "einsum: the result's subscript 'k' is not an operand's", 'einsum_rank': "einsum: subscripts 'ijk' have 3 letters for an operand of rank 2", 'einsum_chars': "einsum: malformed subscripts 'i1' (expected letters and at most one '...')", 'einsum_count': "einsum: the equation 'ij->i' has subscripts for 1 operands, given 2", 'einsum_noeq': 'the equation attribute is required', 'rnn_noR': 'input #2 is required', 'rnn_rank': 'X, W and R must have rank 3', 'rnn_lens_bad': 'sequence_lens must lie in [0, 3]', 'gru_int': 'expects floating-point data', 'lstm_layout': 'layout must be 0 or 1, got 3', 'scatter_oob': 'index 9 is out of bounds for a dimension of size 4', 'scatter_shape': 'updates must have shape indices.shape[:-1] + data.shape[k:]', 'scatterel_oob': 'index 5 is out of bounds for axis 1 of size 3', 'gathernd_batch': 'batch_dims must lie in [0, 2)', 'topk_k': 'k = 9 must lie in [1, 3]', 'topk_big': 'k = 100 sorts the axis of 300000 elements; sorting supports at most 262144', 'cumsum_axis': 'axis 5 is out of range for rank 2', 'lrn_nosize': 'the size attribute is required', 'lrn_rank': 'expects data of rank 3 or more', 'hardmax_axis': 'axis 5 is out of range for rank 2', 'eyelike_rank': 'expects a 2-d input', 'conv1d_pads': 'pads must have 2 values for a 1-d window', 'conv1d_wrank': "the weights must have the data's rank", 'convt_shape': 'output_shape 100 is too large for this convolution', 'pool1d_k': 'kernel_shape, strides and dilations need 1 value', 'pool_nok': 'the kernel_shape attribute is required', 'nll_weight': 'the weights must have one value per class (5)', 'sce_red': "unknown reduction 'avg' (expected none, sum or mean)", 'isinf_int': 'expects a floating-point input', 'mvn_axes': 'axis 7 is out of range for rank 4', 'd2s_mode': 'mode must be "DCR" or "CRD", got "XYZ"', 'onehot_depth': 'depth must be positive, got 0', 'split_scalar': 'axis 0 is out of range for rank 0', 'gather_scalar': 'axis 0 is out of range for rank 0', 'topk_scalar': 'axis 0 is out of range for rank 0', 'squeeze_scalar': 'axis 0 is out of range for rank 0', 'reshape_overflow': ([helper.make_node('Reshape', ['x','s'], ['y'])], [vi('x',[2,3])], [init('s', np.array([536870911, 68719476735, -1], np.int64))]),
 'tensor_claims': ([helper.make_node('Add', ['x','c'], ['y'])], [vi('x',[2])], [claimed('c', [10**7, 10**7], [1.0])]),
 'tensor_overflow': ([helper.make_node('Add', ['x','c'], ['y'])], [vi('x',[2])], [claimed('c', [2**40, 2**40], [1.0])]),
 'slice_scalar': 'axis 0 is out of range for rank 0', 'reshape_overflow': 'shape has more elements than 64 bits count', 'tensor_claims': "tensor 'c' holds 1 values for its 100000000000000 elements", 'tensor_overflow': "tensor 'c' has more elements than memory can hold", 'split_nooutputs': 'a split needs at least one output', 'split_negative': 'split sizes must not be negative, got -2', 'split_overflow': 'split sizes add up to more than 64 bits count'}


# 3-d windows (NCDHW): attributes with one value per spatial axis, ranks
# the converters have.
cases.update({
 'conv3d_pads': ([helper.make_node('Conv', ['x','w'], ['y'], pads=[1,1,1,1])], [vi('x',[1,2,4,6,6])], [init('w', np.zeros((3,2,3,3,3),np.float32))]),
 'conv3d_k': ([helper.make_node('Conv', ['x','w'], ['y'], kernel_shape=[3,3])], [vi('x',[1,2,4,6,6])], [init('w', np.zeros((3,2,3,3,3),np.float32))]),
 'conv3d_groups': ([helper.make_node('Conv', ['x','w'], ['y'], group=3)], [vi('x',[1,4,4,6,6])], [init('w', np.zeros((3,1,3,3,3),np.float32))]),
 'conv6d': ([helper.make_node('Conv', ['x','w'], ['y'])], [vi('x',[1,2,3,3,3,3])], [init('w', np.zeros((3,2,1,1,1,1),np.float32))]),
 'convt3d_opad': ([helper.make_node('ConvTranspose', ['x','w'], ['y'], strides=[2,2,2], output_padding=[1,1])], [vi('x',[1,2,4,6,6])], [init('w', np.zeros((2,3,3,3,3),np.float32))]),
 'convt3d_strides': ([helper.make_node('ConvTranspose', ['x','w'], ['y'], strides=[2,2])], [vi('x',[1,2,4,6,6])], [init('w', np.zeros((2,3,3,3,3),np.float32))]),
 'convt6d': ([helper.make_node('ConvTranspose', ['x','w'], ['y'])], [vi('x',[1,2,3,3,3,3])], [init('w', np.zeros((2,3,1,1,1,1),np.float32))]),
 'pool3d_strides': ([helper.make_node('MaxPool', ['x'], ['y'], kernel_shape=[2,2,2], strides=[2,2])], [vi('x',[1,2,4,6,6])], []),
 'same_stride0': ([helper.make_node('Conv', ['x','w'], ['y'], strides=[0,1], auto_pad='SAME_UPPER')], [vi('x',[1,2,5,5])], [init('w', np.zeros((3,2,3,3),np.float32))]),
 'same_stride0_3d': ([helper.make_node('MaxPool', ['x'], ['y'], kernel_shape=[2,2,2], strides=[1,0,1], auto_pad='SAME_LOWER')], [vi('x',[1,2,5,5,5])], []),
})
EXPECTED.update({
 'conv3d_pads': 'pads must have 6 values for a 3-d window',
 'conv3d_k': 'kernel_shape needs 3 values for a 3-d window, got 2',
 'conv3d_groups': 'the 4 input channels are not divisible by groups = 3',
 'conv6d': 'only 1-d (NCW), 2-d (NCHW) and 3-d (NCDHW) data are supported, got rank 6',
 'convt3d_opad': 'output_padding needs one value per spatial dimension',
 'convt3d_strides': 'kernel_shape, strides and dilations need 3 values',
 'convt6d': 'only 1-d (NCW), 2-d (NCHW) and 3-d (NCDHW) data are supported, got rank 6',
 'pool3d_strides': 'strides needs 3 values for a 3-d window, got 2',
 'same_stride0': 'strides must be positive, got 0',
 'same_stride0_3d': 'strides must be positive, got 0',
})

# GridSample: 2-d images and grids only, its modes.
cases.update({
 'gridsample_3d': ([helper.make_node('GridSample', ['x','g'], ['y'])], [vi('x',[1,2,3,4,4]), vi('g',[1,2,2,2,3])], []),
 'gridsample_mode': ([helper.make_node('GridSample', ['x','g'], ['y'], mode='area')], [vi('x',[1,2,4,4]), vi('g',[1,3,3,2])], []),
 'gridsample_padding': ([helper.make_node('GridSample', ['x','g'], ['y'], padding_mode='wrap')], [vi('x',[1,2,4,4]), vi('g',[1,3,3,2])], []),
 'gridsample_batch': ([helper.make_node('GridSample', ['x','g'], ['y'])], [vi('x',[2,2,4,4]), vi('g',[3,3,3,2])], []),
})
EXPECTED.update({
 'gridsample_3d': 'only 2-d sampling is supported: an NCHW image and a grid [N, H_out, W_out, 2]',
 'gridsample_mode': 'mode "area" is not supported',
 'gridsample_padding': 'padding_mode "wrap" is not supported',
 'gridsample_batch': "expected a grid [N, 2, H_out, W_out] of the data's batch and dtype",
})

# ReverseSequence: its axes and one length per batch entry.
cases.update({
 'revseq_axes': ([helper.make_node('ReverseSequence', ['x','l'], ['y'], batch_axis=2, time_axis=0)], [vi('x',[4,2,3]), vi('l',[2],TensorProto.INT64)], []),
 'revseq_lens': ([helper.make_node('ReverseSequence', ['x','l'], ['y'])], [vi('x',[4,2,3]), vi('l',[3],TensorProto.INT64)], []),
})
EXPECTED.update({
 'revseq_axes': 'expects batch_axis and time_axis 0 and 1 (either way)',
 'revseq_lens': 'reverse_sequence: seq_lengths must hold one integer per batch entry (2)',
})

# RoiAlign: ONNX Runtime's max mode, shapes.
ROI = [vi('x',[1,2,6,6]), vi('r',[3,4]), vi('b',[3],TensorProto.INT64)]
cases.update({
 'roialign_max': ([helper.make_node('RoiAlign', ['x','r','b'], ['y'], mode='max', sampling_ratio=2)], ROI, []),
 'roialign_rois': ([helper.make_node('RoiAlign', ['x','r','b'], ['y'], sampling_ratio=2)], [vi('x',[1,2,6,6]), vi('r',[3,5]), vi('b',[3],TensorProto.INT64)], []),
 'roialign_coords': ([helper.make_node('RoiAlign', ['x','r','b'], ['y'], sampling_ratio=2, coordinate_transformation_mode='corners')], ROI, []),
})
EXPECTED.update({
 'roialign_max': 'mode "max" (ONNX Runtime\'s maximum of each sample\'s weighted taps) is not supported',
 'roialign_rois': 'expected X [N, C, H, W], rois [R, 4] and batch_indices [R]',
 'roialign_coords': 'coordinate_transformation_mode "corners" is not supported',
})


# Det: square floating-point matrices.
cases.update({
 'det_square': ([helper.make_node('Det', ['x'], ['y'])], [vi('x',[2,3,4])], []),
 'det_int': ([helper.make_node('Det', ['x'], ['y'])], [vi('x',[3,3],TensorProto.INT32)], []),
 'det_large': ([helper.make_node('Det', ['x'], ['y'])], [vi('x',[300,300])], []),
})
EXPECTED.update({
 'det_square': 'expects square matrices in the last two dims',
 'det_int': 'expects floating-point matrices',
 'det_large': 'matrices of 300 rows: at most 256 are supported',
})

# LpPool and GlobalLpPool: p of 1 or more; LpPool 1-d or 2-d.
cases.update({
 'lppool_p': ([helper.make_node('LpPool', ['x'], ['y'], kernel_shape=[2, 2], p=0)], [vi('x',[1,1,4,4])], []),
 'lppool_3d': ([helper.make_node('LpPool', ['x'], ['y'], kernel_shape=[2, 2, 2])], [vi('x',[1,1,4,4,4])], []),
 'globallp_p': ([helper.make_node('GlobalLpPool', ['x'], ['y'], p=-1)], [vi('x',[1,1,4,4])], []),
})
EXPECTED.update({
 'lppool_p': 'p must be 1 or more, got 0',
 'lppool_3d': '3-d LpPool is not supported',
 'globallp_p': 'p must be 1 or more, got -1',
})

# Operators on N x C x D1 ... data, given data of rank 2 (one check,
# NodeContext::spatialRank).
cases.update({
 'globalavg_rank': ([helper.make_node('GlobalAveragePool', ['x'], ['y'])], [vi('x',[2,3])], []),
 'globallp_rank': ([helper.make_node('GlobalLpPool', ['x'], ['y'])], [vi('x',[2,3])], []),
 'instnorm_rank': ([helper.make_node('InstanceNormalization', ['x','s','b'], ['y'])], [vi('x',[2,3]), vi('s',[3]), vi('b',[3])], []),
 'maxunpool_rank': ([helper.make_node('MaxUnpool', ['x','i'], ['y'], kernel_shape=[2])], [vi('x',[2,3]), vi('i',[2,3], TensorProto.INT64)], []),
})
EXPECTED.update({k: 'expects data of rank 3 or more (N x C x D1 ...), got rank 2'
                 for k in ['globalavg_rank', 'globallp_rank', 'instnorm_rank',
                           'maxunpool_rank']})

# TfIdfVectorizer: token ids, a pool that splits into whole n-grams.
I64 = TensorProto.INT64


def tfidf(**attrs):
    base = dict(mode='TF', min_gram_length=1, max_gram_length=2,
                max_skip_count=0, pool_int64s=[1, 2, 3, 4, 5],
                ngram_counts=[0, 3], ngram_indexes=[0, 1, 2, 3])
    base.update(attrs)
    return [helper.make_node('TfIdfVectorizer', ['x'], ['y'], **base)]


cases.update({
 'tfidf_float': (tfidf(), [vi('x',[6])], []),
 'tfidf_mode': (tfidf(mode='BM25'), [vi('x',[6],I64)], []),
 'tfidf_counts': (tfidf(ngram_counts=[0]), [vi('x',[6],I64)], []),
 'tfidf_pool': (tfidf(ngram_counts=[0, 2]), [vi('x',[6],I64)], []),
 'tfidf_indexes': (tfidf(ngram_indexes=[0, 1]), [vi('x',[6],I64)], []),
 'tfidf_lengths': (tfidf(min_gram_length=3), [vi('x',[6],I64)], []),
 'tfidf_rank': (tfidf(), [vi('x',[2,3,6],I64)], []),
 'tfidf_strings': (tfidf(pool_strings=['a']), [vi('x',[6],I64)], []),
})
EXPECTED.update({
 'tfidf_float': 'takes int32 or int64 token ids (string inputs are not supported',
 'tfidf_mode': "mode must be TF, IDF or TFIDF, got 'BM25'",
 'tfidf_counts': 'ngram_counts must have max_gram_length (2) entries, got 1',
 'tfidf_pool': 'ngram_counts do not split pool_int64s (5 ids) into whole n-grams',
 'tfidf_indexes': 'ngram_indexes must have one entry per n-gram of the pool (4), got 2',
 'tfidf_lengths': 'needs 1 <= min_gram_length <= max_gram_length, got 3 and 2',
 'tfidf_rank': 'takes a 1-d or 2-d input, got rank 3',
 'tfidf_strings': 'a pool of strings is not supported (token ids only)',
})

# The optimizer updates of ai.onnx.preview.training.
TRAINING = 'ai.onnx.preview.training'
cases.update({
 'adagrad_count': ([helper.make_node('Adagrad', ['r','t','x','g'], ['y'], domain=TRAINING)], [vi('r',[]), vi('t',[],I64), vi('x',[2]), vi('g',[2])], []),
 'adam_rate': ([helper.make_node('Adam', ['r','t','x','g','v','h'], ['y'], domain=TRAINING)], [vi('r',[2]), vi('t',[],I64), vi('x',[2]), vi('g',[2]), vi('v',[2]), vi('h',[2])], []),
 'adam_state': ([helper.make_node('Adam', ['r','t','x','g','v','h'], ['y'], domain=TRAINING)], [vi('r',[]), vi('t',[],I64), vi('x',[2]), vi('g',[2]), vi('v',[3]), vi('h',[2])], []),
 'momentum_mode': ([helper.make_node('Momentum', ['r','t','x','g','v'], ['y'], domain=TRAINING, alpha=0.9, beta=1.0, norm_coefficient=0.0, mode='heavy')], [vi('r',[]), vi('t',[],I64), vi('x',[2]), vi('g',[2]), vi('v',[2])], []),
 'momentum_noalpha': ([helper.make_node('Momentum', ['r','t','x','g','v'], ['y'], domain=TRAINING, beta=1.0, norm_coefficient=0.0, mode='standard')], [vi('r',[]), vi('t',[],I64), vi('x',[2]), vi('g',[2]), vi('v',[2])], []),
})
EXPECTED.update({
 'adagrad_count': 'expects R, T and 3 inputs per optimized tensor (the tensors, their gradients, their states), got 4 inputs',
 'adam_rate': 'the learning rate R must be a floating-point scalar',
 'adam_state': 'input #4 must have the type of the tensor it goes with, input #2',
 'momentum_mode': 'mode must be "standard" or "nesterov", got "heavy"',
 'momentum_noalpha': "the attribute 'alpha' is required",
})


def main():
    tmp, translate = sys.argv[1], sys.argv[2]
    os.makedirs(tmp, exist_ok=True)
    failures = 0
    for name, (nodes, inputs, inits) in cases.items():
        graph = helper.make_graph(nodes, 'g', inputs,
                                  [vi(o, None) for o in nodes[-1].output if o],
                                  inits)
        path = os.path.join(tmp, name + '.onnx')
        onnx.save(helper.make_model(
            graph, opset_imports=[helper.make_opsetid('', 14)]), path)
        proc = subprocess.run([translate, '--import-onnx', path,
                               '-o', os.devnull], capture_output=True,
                              text=True)
        want = EXPECTED[name]
        op = nodes[0].op_type
        # A corrupt initializer is an error at the model, not a node.
        at_node = ('error: %s node' % op in proc.stderr
                   or name.startswith('tensor_'))
        ok = proc.returncode == 1 and at_node and want in proc.stderr
        failures += not ok
        print('%-16s %s' % (name, 'rejected' if ok else
                            'UNEXPECTED (exit %d): %s' % (
                                proc.returncode, proc.stderr.strip()[:300])))
    print('%d unexpected' % failures)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
