"""The PyTorch twin of the Decision Transformer against the C++ core (core/rl/decision_transformer.hpp):
on the same weights and segment, the predicted actions and the loss within 1e-6 and every parameter's
gradient within 1e-5 (relative, float64 on both sides) for the three mixers, on a segment shorter than
the context with timesteps past the table; and a padded batch that gives each segment what it gets alone."""
import shutil
import unittest

from twin_testing import require_torch

require_torch()

import numpy as np  # noqa: E402
import torch  # noqa: E402

import twin_testing as tt  # noqa: E402
from aaren_torch import DecisionConfig, DecisionTransformer, init_parameters_  # noqa: E402

# As in test_parity.py: the double forwards differ only by the probe's float32 output (about 6e-8).
FORWARD_TOLERANCE = 1e-6
GRADIENT_TOLERANCE = 1e-5
KINDS = ("aaren", "transformer", "linear")


def probe_metadata(c):
    return {"kind": c.kind, "d_model": str(c.d_model), "heads": str(c.heads), "layers": str(c.layers),
            "d_ff": str(c.d_ff), "state_dim": str(c.state_dim), "action_dim": str(c.action_dim),
            "context": str(c.context), "max_timestep": str(c.max_timestep), "return_scale": repr(c.return_scale)}


def a_config(kind):
    # max_timestep shorter than the segments, so that the table's last row is shared by later steps.
    return DecisionConfig(kind=kind, d_model=12, heads=3, layers=2, d_ff=20, state_dim=3, action_dim=2, context=8,
                          max_timestep=4, return_scale=50.0)


def float32_model(config, seed):
    """A model whose weights are float32 values held in float64, as the probe reads them; every weight
    moved off its initial value (LayerNorm's 1 and 0 included) so that none is a special case."""
    model = init_parameters_(DecisionTransformer(config), seed).double()
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in model.parameters():
            p.add_(0.1 * torch.randn(p.shape, generator=generator, dtype=torch.float64))
            p.copy_(p.float().double())
    return model


def a_segment(rng, config, n, first_timestep):
    """float32 arrays: returns-to-go (n), states (n, S), actions (n, A) in [-0.9, 0.9], and timesteps (n)."""
    return (rng.normal(size=n).astype(np.float32), rng.normal(size=(n, config.state_dim)).astype(np.float32),
            rng.uniform(-0.9, 0.9, size=(n, config.action_dim)).astype(np.float32),
            np.arange(first_timestep, first_timestep + n))


def batched(*arrays):
    """float64 tensors of one segment with a batch dimension of 1; the timesteps as long."""
    *values, timesteps = arrays
    return [torch.from_numpy(np.asarray(a, np.float64)).unsqueeze(0) for a in values] + \
        [torch.from_numpy(np.asarray(timesteps)).long().unsqueeze(0)]


class DecisionParity(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tt.scratch_dir()
        cls.addClassCleanup(shutil.rmtree, cls.scratch, True)
        cls.worst = {}

    @classmethod
    def tearDownClass(cls):
        for kind, (forward, gradient) in cls.worst.items():
            print(f"{kind}: worst forward {forward:.2e}, worst gradient {gradient:.2e}")

    def check(self, config, n, seed, first_timestep):
        model = float32_model(config, seed)
        rng = np.random.default_rng(seed)
        returns, states, actions, timesteps = a_segment(rng, config, n, first_timestep)
        inputs = {name: p.detach().float().numpy() for name, p in model.named_parameters()}
        inputs.update(returns_to_go=returns, states=states, actions=actions, timesteps=timesteps.astype(np.float32))
        cpp = tt.probe("decision", "-", inputs, self.scratch, probe_metadata(config))

        r, s, a, t = batched(returns, states, actions, timesteps)
        predicted = model(r, s, a, t)
        loss = model.loss(predicted, a)
        model.zero_grad()
        loss.backward()
        forward = max(tt.relative_error(predicted[0].detach().numpy(), cpp["predicted"]),
                      abs(float(loss) - cpp["loss"][0]) / abs(cpp["loss"][0]))
        self.assertLess(forward, FORWARD_TOLERANCE)
        names = [name for name, _ in model.layout()]
        self.assertEqual(names, [name for name, _ in model.named_parameters()])
        self.assertEqual([tuple(p.shape) for _, p in model.named_parameters()], [shape for _, shape in model.layout()])
        self.assertEqual(sorted(names), sorted(k[len("grad."):] for k in cpp if k.startswith("grad.")))
        worst = tt.worst_gradient_error({n: p.grad.numpy() for n, p in model.named_parameters()}, cpp)
        self.assertLess(worst[0], GRADIENT_TOLERANCE, f"gradient of {worst[1]}")
        # Not a vacuous pass: the loss reaches the head, the embeddings (the actions' once a prediction
        # reads an earlier step's) and the table's row of every step, and no other row.
        reached = [model.predict_action.weight.grad, model.embed_return.weight.grad, model.embed_state.weight.grad]
        if n > 1:
            reached.append(model.embed_action.weight.grad)
        rows = sorted(set(np.minimum(timesteps, config.max_timestep - 1)))
        reached += [model.embed_timestep.weight.grad[row] for row in rows]
        for grad in reached:
            self.assertGreater(float(grad.abs().max()), 0)
        if n == 1:
            self.assertEqual(float(model.embed_action.weight.grad.abs().max()), 0)
        unread = [row for row in range(config.max_timestep) if row not in rows]
        self.assertEqual(float(model.embed_timestep.weight.grad[unread].abs().sum()), 0)
        previous = self.worst.get(config.kind, (0.0, 0.0))
        type(self).worst[config.kind] = (max(previous[0], forward), max(previous[1], worst[0]))

    def test_every_kind(self):
        # n = 6 < context 8, timesteps 2..7 against a table of 4 rows: the last three read row 3.
        for seed, kind in enumerate(KINDS, start=10):
            with self.subTest(kind=kind):
                self.check(a_config(kind), n=6, seed=seed, first_timestep=2)

    def test_one_step_and_a_full_context(self):
        for seed, kind in enumerate(KINDS, start=20):
            with self.subTest(kind=kind, n=1):
                self.check(a_config(kind), n=1, seed=seed, first_timestep=0)
            with self.subTest(kind=kind, n=8):
                self.check(a_config(kind), n=8, seed=seed + 5, first_timestep=100)

    def test_padded_batch_equals_each_segment_alone(self):
        # The shorter segment padded with garbage (NaN, huge values, negative and huge timesteps) gets
        # the predictions and loss it gets alone; the batch's loss is the mean of the two, and its
        # gradient the mean of theirs.
        for seed, kind in enumerate(KINDS, start=30):
            with self.subTest(kind=kind):
                config = a_config(kind)
                model = float32_model(config, seed)
                rng = np.random.default_rng(seed)
                lengths = [7, 3]
                segments = [a_segment(rng, config, n, first_timestep=1) for n in lengths]
                padded = [[np.asarray(x, np.float64) for x in segment] for segment in segments]
                r, s, a, t = padded[1]
                extra = lengths[0] - lengths[1]
                garbage = [np.concatenate([r, [np.nan, 1e6, -1e6, np.nan][:extra]]),
                           np.concatenate([s, np.full((extra, config.state_dim), np.nan)]),
                           np.concatenate([a, np.full((extra, config.action_dim), 1e6)]),
                           np.concatenate([t, [-7, 10 ** 9, -1, 5][:extra]])]
                batch = [torch.cat(pair) for pair in zip(batched(*padded[0]), batched(*garbage))]

                alone_losses, alone_grads = [], []
                alone_predictions = []
                for segment in segments:
                    r, s, a, t = batched(*segment)
                    predicted = model(r, s, a, t)
                    loss = model.loss(predicted, a)
                    model.zero_grad()
                    loss.backward()
                    alone_predictions.append(predicted[0].detach())
                    alone_losses.append(float(loss))
                    alone_grads.append({n: p.grad.clone() for n, p in model.named_parameters()})

                lengths_tensor = torch.tensor(lengths)
                predicted = model(*batch, lengths=lengths_tensor)
                for b, n in enumerate(lengths):
                    self.assertLess(tt.relative_error(predicted[b, :n].detach().numpy(),
                                                      alone_predictions[b].numpy()), 1e-12)
                    per_segment = model.loss(predicted[b:b + 1], batch[2][b:b + 1], lengths_tensor[b:b + 1])
                    self.assertAlmostEqual(float(per_segment), alone_losses[b], places=12)
                loss = model.loss(predicted, batch[2], lengths_tensor)
                self.assertAlmostEqual(float(loss), sum(alone_losses) / 2, places=12)
                model.zero_grad()
                loss.backward()
                expected = {n: (alone_grads[0][n] + alone_grads[1][n]) / 2 for n in alone_grads[0]}
                largest = max(float(g.abs().max()) for g in expected.values())
                for name, p in model.named_parameters():
                    self.assertTrue(bool(torch.isfinite(p.grad).all()), name)
                    self.assertLess(float((p.grad - expected[name]).abs().max()), 1e-10 * largest, name)

    def test_settings_are_checked(self):
        for bad, message in ((dict(context=0), "context must be between 1"),
                             (dict(max_timestep=0), "max_timestep must be between 1"),
                             (dict(return_scale=0.0), "return_scale must be a positive number"),
                             (dict(heads=5), "does not divide")):
            with self.subTest(**bad), self.assertRaisesRegex(ValueError, message):
                DecisionTransformer(DecisionConfig(**{**dict(d_model=8, heads=2), **bad}))
        model = DecisionTransformer(DecisionConfig(d_model=8, heads=2, context=3))
        r, s, a = torch.zeros(1, 4), torch.zeros(1, 4, 1), torch.zeros(1, 4, 1)
        with self.assertRaisesRegex(ValueError, "takes 1 to 3"):
            model(r, s, a, torch.zeros(1, 4, dtype=torch.long))
        with self.assertRaisesRegex(ValueError, "timestep -1 is negative"):
            model(r[:, :2], s[:, :2], a[:, :2], torch.tensor([[0, -1]]))


if __name__ == "__main__":
    unittest.main(verbosity=2)
