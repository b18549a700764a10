"""The PyTorch twin of the classifier against the C++ core (core/classify/classifier_model.hpp,
docs/classification-model.md): on the same weights and case, the logits, probabilities and loss
within 1e-6 and every parameter's gradient within 1e-5 (relative, float64 on both sides), for both
mixers, both poolings, instance norm on and off, label smoothing 0 and 0.1, missing values, and a
batch of cases padded to one length."""
import shutil
import unittest

from twin_testing import require_torch

require_torch()

import numpy as np  # noqa: E402
import torch  # noqa: E402

import twin_testing as tt  # noqa: E402
from aaren_torch import ClassifierConfig, ClassifierModel, init_parameters_  # noqa: E402
from aaren_torch.models import classifier_normalize  # noqa: E402

# As in test_parity.py: the double forwards differ only by the probe's float32 output (about 6e-8).
FORWARD_TOLERANCE = 1e-6
GRADIENT_TOLERANCE = 1e-5


def probe_metadata(c):
    return {"kind": c.kind, "d_model": str(c.d_model), "heads": str(c.heads), "layers": str(c.layers),
            "d_ff": str(c.d_ff), "seq_len": str(c.seq_len), "channels": str(c.channels), "classes": str(c.classes),
            "pooling": c.pooling, "instance_norm": "true" if c.instance_norm else "false",
            "label_smoothing": repr(c.label_smoothing)}


def float32_model(config, seed):
    """A model whose weights are float32 values held in float64, as the probe reads them."""
    model = init_parameters_(ClassifierModel(config), seed).double()
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(p.float().double())
    return model


def a_case(rng, n, channels, missing_share, level=0.0, scale=1.0):
    """(x float32 (n, C), missing (n, C) bool): a series with some values missing."""
    x = (level + scale * rng.normal(size=(n, channels))).astype(np.float32)
    missing = rng.random(size=(n, channels)) < missing_share
    return x, missing


class ClassifierParity(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tt.scratch_dir()
        cls.addClassCleanup(shutil.rmtree, cls.scratch, True)
        cls.worst = {"forward": 0.0, "gradient": 0.0}

    @classmethod
    def tearDownClass(cls):
        print(f"worst over the cases: forward {cls.worst['forward']:.2e}, gradient {cls.worst['gradient']:.2e}")

    def check(self, config, n, seed, missing_share=0.0, label=1, level=0.0, scale=1.0, all_missing_channel=False):
        model = float32_model(config, seed)
        rng = np.random.default_rng(seed)
        x, missing = a_case(rng, n, config.channels, missing_share, level, scale)
        if all_missing_channel:
            missing[:, 0] = True
        inputs = {name: p.detach().float().numpy() for name, p in model.named_parameters()}
        inputs.update(x=x, label=np.array([label], np.float32))
        if missing.any():
            inputs["missing"] = missing.astype(np.float32)
        cpp = tt.probe("classify", "-", inputs, self.scratch, probe_metadata(config))

        x_nan = torch.from_numpy(np.where(missing, np.nan, x).astype(np.float64)).unsqueeze(0)
        logits = model(x_nan)
        loss = model.loss(logits, torch.tensor([label]))
        model.zero_grad()
        loss.backward()
        forward = max(tt.relative_error(logits[0].detach().numpy(), cpp["logits"]),
                      tt.relative_error(model.probabilities(logits)[0].detach().numpy(), cpp["probs"]),
                      abs(float(loss) - cpp["loss"][0]) / abs(cpp["loss"][0]))
        self.assertLess(forward, FORWARD_TOLERANCE)
        names = [name for name, _ in model.layout()]
        self.assertEqual(names, [name for name, _ in model.named_parameters()])
        self.assertEqual(sorted(names), sorted(k[len("grad."):] for k in cpp if k.startswith("grad.")))
        worst = tt.worst_gradient_error({n: p.grad.numpy() for n, p in model.named_parameters()}, cpp)
        self.assertLess(worst[0], GRADIENT_TOLERANCE, f"gradient of {worst[1]}")
        # Not a vacuous pass: the loss moves every tensor the case reaches.
        self.assertGreater(float(model.head.weight.grad.abs().max()), 0)
        self.assertGreater(float(model.embed.weight.grad.abs().max()), 0)
        type(self).worst["forward"] = max(self.worst["forward"], forward)
        type(self).worst["gradient"] = max(self.worst["gradient"], worst[0])
        return model, x_nan

    def test_every_combination(self):
        # The three mixers x both poolings x instance norm off/on x label smoothing 0/0.1, with a partial
        # case (n < seq_len) and a few missing values in half of them.
        seed = 10
        for kind in ("aaren", "transformer", "linear"):
            for pooling in ("mean", "last"):
                for instance_norm in (False, True):
                    for smoothing in (0.0, 0.1):
                        seed += 1
                        with self.subTest(kind=kind, pooling=pooling, instance_norm=instance_norm,
                                          label_smoothing=smoothing):
                            config = ClassifierConfig(kind=kind, d_model=12, heads=3, layers=2, d_ff=20, seq_len=14,
                                                      channels=2, classes=3, pooling=pooling,
                                                      instance_norm=instance_norm, label_smoothing=smoothing)
                            self.check(config, n=14 if seed % 2 else 9, seed=seed,
                                       missing_share=0.15 if seed % 2 == 0 else 0.0, label=seed % 3,
                                       level=3.0 if instance_norm else 0.0)

    def test_missing_values_and_an_empty_channel(self):
        # A quarter of the values missing and one channel with none present: statistics over what is
        # there, 0 for the rest, on both sides.
        for kind in ("aaren", "transformer"):
            for instance_norm in (False, True):
                with self.subTest(kind=kind, instance_norm=instance_norm):
                    config = ClassifierConfig(kind=kind, d_model=8, heads=2, layers=1, d_ff=16, seq_len=10,
                                              channels=3, classes=4, pooling="mean", instance_norm=instance_norm,
                                              label_smoothing=0.1)
                    self.check(config, n=10, seed=40 + instance_norm, missing_share=0.25, label=2, level=-5.0,
                               all_missing_channel=True)

    def test_one_step_and_many_classes(self):
        config = ClassifierConfig(kind="aaren", d_model=16, heads=4, layers=2, d_ff=8, seq_len=6, channels=1,
                                  classes=7, pooling="last", instance_norm=False, label_smoothing=0.1)
        self.check(config, n=1, seed=50, label=6)

    def test_padded_batch_equals_each_case_alone(self):
        # Cases of different lengths padded into one batch (NaN, then garbage past each case) give each
        # case's logits and the mean of their losses; the C++ reads only a case's own rows.
        for kind in ("aaren", "transformer", "linear"):
            for pooling in ("mean", "last"):
                with self.subTest(kind=kind, pooling=pooling):
                    config = ClassifierConfig(kind=kind, d_model=8, heads=2, layers=2, d_ff=12, seq_len=12,
                                              channels=2, classes=3, pooling=pooling, instance_norm=True)
                    model = float32_model(config, 60)
                    rng = np.random.default_rng(61)
                    lengths = [12, 5, 1, 8]
                    batch = np.full((len(lengths), 12, 2), np.nan)
                    batch[1, 7:] = 1e6  # padding the model must not read
                    alone = []
                    for b, n in enumerate(lengths):
                        x = rng.normal(size=(n, 2))
                        x[rng.random(size=(n, 2)) < 0.2] = np.nan
                        batch[b, :n] = x
                        alone.append(model(torch.from_numpy(x).unsqueeze(0))[0])
                    logits = model(torch.from_numpy(batch), torch.tensor(lengths))
                    self.assertTrue(torch.isfinite(logits).all())
                    self.assertLess(tt.relative_error(logits.detach().numpy(),
                                                      torch.stack(alone).detach().numpy()), 1e-12)
                    labels = torch.tensor([0, 1, 2, 1])
                    separate = sum(model.loss(a.unsqueeze(0), labels[i:i + 1]) for i, a in enumerate(alone)) / 4
                    self.assertAlmostEqual(float(model.loss(logits, labels)), float(separate), places=12)

    def test_normalization(self):
        # docs/classification-model.md: statistics over the present values, biased variance + 1e-5.
        x = torch.tensor([[[1.0, np.nan], [np.nan, np.nan], [3.0, np.nan], [8.0, np.nan]]], dtype=torch.float64)
        xn = classifier_normalize(x, torch.tensor([3]), True)[0]
        sigma = np.sqrt(1.0 + 1e-5)
        np.testing.assert_allclose(xn[:, 0].numpy(), [-1 / sigma, 0, 1 / sigma, 0], rtol=1e-15)
        np.testing.assert_array_equal(xn[:, 1].numpy(), [0, 0, 0, 0])
        np.testing.assert_array_equal(classifier_normalize(x, torch.tensor([4]), False)[0, :, 0].numpy(),
                                      [1, 0, 3, 8])

    def test_settings_are_checked(self):
        for bad, message in ((dict(classes=1), "classes must be between 2"), (dict(pooling="max"), "pooling"),
                             (dict(label_smoothing=1.0), "label_smoothing"), (dict(heads=3), "does not divide")):
            with self.subTest(**bad), self.assertRaisesRegex(ValueError, message):
                ClassifierModel(ClassifierConfig(**{**dict(d_model=8, heads=2, seq_len=4), **bad}))


if __name__ == "__main__":
    unittest.main(verbosity=2)
