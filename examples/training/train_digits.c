/* Trains the digits CNN of digits_cnn.rly with its compiled SGD step.
 *
 *   train_digits DATA_DIR LEARNING_RATE LOSSES_OUT
 *
 * relay_step (step.o, from @step: forward, backward and update in one
 * compiled Relay function) is called once per batch of 32, in the order
 * DATA_DIR/order gives (prepare_digits.py), at LEARNING_RATE and a tenth
 * of it in the last quarter of the epochs; after each epoch relay_predict
 * (predict.o) classifies the test set. Prints each epoch's mean loss and
 * test accuracy, writes every step's loss to LOSSES_OUT (one per line, for
 * check_torch.py) and exits 1 if the data cannot be read. */
#include "predict.h"
#include "step.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TRAIN = 1437, TEST = 360, TEST_PADDED = 384, BATCH = 32, PIXELS = 64 };
enum { NUM_WEIGHTS = 6 };

static const char *const weightNames[NUM_WEIGHTS] = {"w1", "b1", "w2",
                                                     "b2", "w3", "b3"};
static const int64_t weightShapes[NUM_WEIGHTS][4] = {
    {16, 1, 3, 3}, {16}, {32, 16, 3, 3}, {32}, {10, 512}, {10}};
static const int weightRanks[NUM_WEIGHTS] = {4, 1, 4, 1, 2, 1};

/* A float32 tensor: its buffer (what free() takes, null when borrowed) and
 * its data. */
typedef struct {
  float *allocated;
  float *data;
  int rank;
  int64_t shape[4];
} Tensor;

static int64_t numElements(const Tensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->rank; ++i)
    n *= t->shape[i];
  return n;
}

/* Writes `t` as an MLIR memref descriptor {allocated, aligned, offset,
 * sizes[rank], strides[rank]} (the header's relay_*_argN_t) into `words`,
 * which must hold 3 + 2 * rank words. */
static void toDescriptor(const Tensor *t, int64_t *words) {
  void *pointers[2] = {t->data, t->data};
  memcpy(words, pointers, sizeof(pointers));
  words[2] = 0;
  int64_t stride = 1;
  for (int i = t->rank - 1; i >= 0; --i) {
    words[3 + i] = t->shape[i];
    words[3 + t->rank + i] = stride;
    stride *= t->shape[i];
  }
}

static void *readFile(const char *dir, const char *name, size_t bytes) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "train_digits: error: cannot open %s\n", path);
    exit(1);
  }
  void *data = malloc(bytes);
  size_t read = fread(data, 1, bytes, f);
  int extra = fgetc(f);
  fclose(f);
  if (read != bytes || extra != EOF) {
    fprintf(stderr,
            "train_digits: error: %s holds %s than the %zu bytes expected\n",
            path, read != bytes ? "fewer" : "more", bytes);
    exit(1);
  }
  return data;
}

/* The share of the test set relay_predict classifies right. */
static double testAccuracy(Tensor *weights, const float *testX,
                           const int32_t *labels) {
  int correct = 0;
  for (int start = 0; start < TEST_PADDED; start += BATCH) {
    int64_t args[NUM_WEIGHTS + 1][11];
    for (int i = 0; i < NUM_WEIGHTS; ++i)
      toDescriptor(&weights[i], args[i]);
    Tensor x = {
        NULL, (float *)testX + (int64_t)start * PIXELS, 4, {BATCH, 1, 8, 8}};
    toDescriptor(&x, args[NUM_WEIGHTS]);
    relay_predict_results_t logits;
    relay_predict(
        &logits, (relay_predict_arg0_t *)args[0],
        (relay_predict_arg1_t *)args[1], (relay_predict_arg2_t *)args[2],
        (relay_predict_arg3_t *)args[3], (relay_predict_arg4_t *)args[4],
        (relay_predict_arg5_t *)args[5], (relay_predict_arg6_t *)args[6]);
    const float *l = logits.r0.aligned + logits.r0.offset;
    for (int b = 0; b < BATCH && start + b < TEST; ++b) {
      int best = 0;
      for (int k = 1; k < 10; ++k)
        if (l[b * 10 + k] > l[b * 10 + best])
          best = k;
      correct += best == labels[start + b];
    }
    free(logits.r0.allocated);
  }
  return (double)correct / TEST;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: train_digits DATA_DIR LEARNING_RATE LOSSES_OUT\n");
    return 2;
  }
  const char *dir = argv[1];
  char *end;
  float learningRate = strtof(argv[2], &end);
  if (*end || !(learningRate > 0)) {
    fprintf(stderr,
            "train_digits: error: the learning rate must be a positive "
            "number, got '%s'\n",
            argv[2]);
    return 2;
  }
  FILE *losses = fopen(argv[3], "w");
  if (!losses) {
    fprintf(stderr, "train_digits: error: cannot write %s\n", argv[3]);
    return 1;
  }
  int epochs = 0;
  {
    char path[4096];
    snprintf(path, sizeof(path), "%s/epochs", dir);
    FILE *f = fopen(path, "r");
    if (!f || fscanf(f, "%d", &epochs) != 1 || epochs <= 0) {
      fprintf(stderr, "train_digits: error: cannot read %s\n", path);
      return 1;
    }
    fclose(f);
  }
  float *trainX = readFile(dir, "train_x", sizeof(float) * TRAIN * PIXELS);
  float *trainY = readFile(dir, "train_y", sizeof(float) * TRAIN * 10);
  float *testX = readFile(dir, "test_x", sizeof(float) * TEST_PADDED * PIXELS);
  int32_t *labels = readFile(dir, "test_labels", sizeof(int32_t) * TEST);
  int32_t *order =
      readFile(dir, "order", sizeof(int32_t) * (size_t)epochs * TRAIN);
  Tensor weights[NUM_WEIGHTS];
  for (int i = 0; i < NUM_WEIGHTS; ++i) {
    weights[i].rank = weightRanks[i];
    memcpy(weights[i].shape, weightShapes[i], sizeof(weightShapes[i]));
    weights[i].data =
        readFile(dir, weightNames[i], sizeof(float) * numElements(&weights[i]));
    weights[i].allocated = weights[i].data;
  }

  float batchX[BATCH * PIXELS], batchY[BATCH * 10];
  Tensor x = {NULL, batchX, 4, {BATCH, 1, 8, 8}};
  Tensor y = {NULL, batchY, 2, {BATCH, 10}};
  Tensor lr = {NULL, &learningRate, 0, {0}};
  printf("training on %d images, testing on %d: %d epochs of %d steps "
         "(batch %d)\n",
         TRAIN, TEST, epochs, TRAIN / BATCH, BATCH);
  float baseRate = learningRate;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    double total = 0;
    /* The same schedule as check_torch.py's. */
    learningRate = 4 * epoch >= 3 * epochs ? baseRate / 10 : baseRate;
    for (int step = 0; step < TRAIN / BATCH; ++step) {
      for (int b = 0; b < BATCH; ++b) {
        int32_t i = order[(int64_t)epoch * TRAIN + step * BATCH + b];
        memcpy(batchX + b * PIXELS, trainX + (int64_t)i * PIXELS,
               sizeof(float) * PIXELS);
        memcpy(batchY + b * 10, trainY + (int64_t)i * 10, sizeof(float) * 10);
      }
      int64_t args[NUM_WEIGHTS + 3][11];
      for (int i = 0; i < NUM_WEIGHTS; ++i)
        toDescriptor(&weights[i], args[i]);
      toDescriptor(&x, args[NUM_WEIGHTS]);
      toDescriptor(&y, args[NUM_WEIGHTS + 1]);
      toDescriptor(&lr, args[NUM_WEIGHTS + 2]);
      relay_step_results_t r;
      relay_step(&r, (relay_step_arg0_t *)args[0], (relay_step_arg1_t *)args[1],
                 (relay_step_arg2_t *)args[2], (relay_step_arg3_t *)args[3],
                 (relay_step_arg4_t *)args[4], (relay_step_arg5_t *)args[5],
                 (relay_step_arg6_t *)args[6], (relay_step_arg7_t *)args[7],
                 (relay_step_arg8_t *)args[8]);
      float loss = r.r0.aligned[r.r0.offset];
      free(r.r0.allocated);
      fprintf(losses, "%.9g\n", loss);
      total += loss;
      /* The updated weights replace the old ones, whose buffers go. */
      float *allocated[NUM_WEIGHTS] = {r.r1.allocated, r.r2.allocated,
                                       r.r3.allocated, r.r4.allocated,
                                       r.r5.allocated, r.r6.allocated};
      float *aligned[NUM_WEIGHTS] = {
          r.r1.aligned + r.r1.offset, r.r2.aligned + r.r2.offset,
          r.r3.aligned + r.r3.offset, r.r4.aligned + r.r4.offset,
          r.r5.aligned + r.r5.offset, r.r6.aligned + r.r6.offset};
      for (int i = 0; i < NUM_WEIGHTS; ++i) {
        free(weights[i].allocated);
        weights[i].allocated = allocated[i];
        weights[i].data = aligned[i];
      }
    }
    printf("epoch %2d: learning rate %g, mean loss %.4f, test accuracy "
           "%.1f%%\n",
           epoch + 1, learningRate, total / (TRAIN / BATCH),
           100 * testAccuracy(weights, testX, labels));
    fflush(stdout);
  }
  double accuracy = testAccuracy(weights, testX, labels);
  printf("final test accuracy: %.2f%% (%d of %d)\n", 100 * accuracy,
         (int)(accuracy * TEST + 0.5), TEST);
  fclose(losses);
  for (int i = 0; i < NUM_WEIGHTS; ++i)
    free(weights[i].allocated);
  free(trainX);
  free(trainY);
  free(testX);
  free(labels);
  free(order);
  return 0;
}
