"""The models of docs/DESIGN.md section 4 as torch.nn.Modules, parameter for parameter.

Every parameter has the name and shape that core/model/parameter_layout.cpp gives it, so a run's
model.safetensors loads with load_state_dict and state_dict() saves back to it. The forward passes
follow core/model/forecast_model.cpp, core/model/backbone.cpp, core/model/mixer.cpp and
core/events/event_model.cpp operation for operation: instance norm (biased variance, eps 1e-5),
embedding plus the sinusoidal positional encoding, pre-LN blocks, exact (erf) GELU, LayerNorm eps
1e-5, and the Aaren mixer's learned query q = Wq q0 + bq with scores scaled by 1/sqrt(d_head).
The linear Transformer's mixer (Katharopoulos et al. 2020) is causal linear attention of the features
phi = elu + 1, with eps 1e-6 in the denominator and no 1/sqrt(d_head) (core/nn/causal_linear_attention.hpp).
"""
import math
from dataclasses import dataclass, replace

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from .prefix_attention import prefix_attention

LAYER_NORM_EPS = 1e-5
INSTANCE_NORM_EPS = 1e-5
MIN_SCALED_GAP = 1e-6       # core/events/event_features.hpp: kMinScaledGap
LOG_SCALE_MIN = -5.0        # core/events/event_heads.hpp: kLogScaleMin
LOG_SCALE_MAX = 1.5         # core/events/event_heads.hpp: kLogScaleMax
KINDS = ("aaren", "transformer", "linear")
LINEAR_ATTENTION_EPS = 1e-6  # core/attention/linear_attention.hpp: kLinearAttentionEps


@dataclass
class BackboneConfig:
    kind: str = "aaren"
    d_model: int = 64
    heads: int = 4
    layers: int = 2
    d_ff: int = 256

    def validate(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be 'aaren', 'transformer' or 'linear', got '{self.kind}'")
        if self.d_model % self.heads != 0:
            raise ValueError(f"--heads {self.heads} does not divide --d-model {self.d_model}")


FEATURES = ("M", "S", "MS")


@dataclass
class ForecastConfig(BackboneConfig):
    seq_len: int = 96
    horizon: int = 96
    channels: int = 1
    # Features MS: the one input channel the head forecasts (ModelConfig::target_channel); -1 (M, S):
    # every channel. Not a field of config.json's "model" section: config.json's data section decides
    # it ("features" and "target"), so it is a plain attribute, left out of fields().
    target_channel = -1

    def outputs(self):
        """K, the channels forecast: C, or 1 for features MS."""
        return self.channels if self.target_channel < 0 else 1

    def validate(self):
        super().validate()
        if not -1 <= self.target_channel < self.channels:
            raise ValueError(f"the target channel {self.target_channel} is not one of the {self.channels} channels")


@dataclass
class EventConfig(BackboneConfig):
    window: int = 64
    marks: int = 0
    mixture_components: int = 8
    time_frequencies: int = 8
    feature: bool = False
    time_scale: float = 1.0

    def input_features(self):
        return 1 + 2 * self.time_frequencies + (1 if self.feature else 0)


def positional_encoding(length, d_model):
    """(length, d_model): PE[t, 2i] = sin(t / 10000^(2i/d)), PE[t, 2i+1] = cos(...), in float64."""
    t = np.arange(length, dtype=np.float64)[:, None]
    j = np.arange(d_model)
    angle = t / np.power(10000.0, (j - j % 2).astype(np.float64) / d_model)
    return torch.from_numpy(np.where(j % 2 == 0, np.sin(angle), np.cos(angle)))


def causal_linear_attention(phi_q, phi_k, v):
    """(B, H, T, dh) each: y_i = phi(q_i)^T S_i / (phi(q_i)^T z_i + eps) over tokens j <= i, in the
    quadratic form tril(phi(Q) phi(K)^T) V, equal to the C++ chunked form up to rounding."""
    t = phi_q.shape[-2]
    causal = torch.ones(t, t, dtype=torch.bool, device=phi_q.device).tril()
    similarity = (phi_q @ phi_k.transpose(-1, -2)).masked_fill(~causal, 0.0)
    return (similarity @ v) / (similarity.sum(dim=-1, keepdim=True) + LINEAR_ATTENTION_EPS)


class Mixer(nn.Module):
    """The token mixer: causal multi-head self-attention, Aaren's constant learned query, or causal
    linear attention."""

    def __init__(self, kind, d_model, heads):
        super().__init__()
        self.kind, self.heads = kind, heads
        if kind == "aaren":
            self.q0 = nn.Parameter(torch.empty(d_model))  # registered first: it comes first in the layout
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)
        self.wo = nn.Linear(d_model, d_model)

    def forward(self, x):  # (B, T, D) -> (B, T, D)
        b, t, d = x.shape
        h, dh = self.heads, d // self.heads
        scale = 1.0 / math.sqrt(dh)
        k = self.wk(x).view(b, t, h, dh).transpose(1, 2)  # (B, H, T, dh)
        v = self.wv(x).view(b, t, h, dh).transpose(1, 2)
        if self.kind == "aaren":
            q = self.wq(self.q0).view(h, dh)  # q = Wq q0 + bq, one query per head
            scores = scale * torch.einsum("hj,bhtj->bht", q, k)
            att = prefix_attention(scores, v)  # every prefix, memory linear in T
        elif self.kind == "linear":
            q = self.wq(x).view(b, t, h, dh).transpose(1, 2)
            att = causal_linear_attention(F.elu(q) + 1, F.elu(k) + 1, v)
        else:
            q = self.wq(x).view(b, t, h, dh).transpose(1, 2)
            scores = scale * (q @ k.transpose(-1, -2))
            causal = torch.ones(t, t, dtype=torch.bool, device=x.device).tril()
            att = torch.softmax(scores.masked_fill(~causal, float("-inf")), dim=-1) @ v
        return self.wo(att.transpose(1, 2).reshape(b, t, d))


class FeedForward(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.fc1 = nn.Linear(d_model, d_ff)
        self.fc2 = nn.Linear(d_ff, d_model)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))  # exact (erf) GELU


class Block(nn.Module):
    """Pre-LN: h + Mixer(LN1(h)), then h + FFN(LN2(h))."""

    def __init__(self, config: BackboneConfig):
        super().__init__()
        self.ln1 = nn.LayerNorm(config.d_model, eps=LAYER_NORM_EPS)
        self.mixer = Mixer(config.kind, config.d_model, config.heads)
        self.ln2 = nn.LayerNorm(config.d_model, eps=LAYER_NORM_EPS)
        self.ffn = FeedForward(config.d_model, config.d_ff)

    def forward(self, h):
        h = h + self.mixer(self.ln1(h))
        return h + self.ffn(self.ln2(h))


def backbone_layout(config: BackboneConfig):
    """(name, shape) of the blocks and the final norm, as ParameterLayout::add_blocks_and_final_norm."""
    d, f = config.d_model, config.d_ff
    out = []
    for layer in range(config.layers):
        p = f"blocks.{layer}."
        out += [(p + "ln1.weight", (d,)), (p + "ln1.bias", (d,))]
        if config.kind == "aaren":
            out.append((p + "mixer.q0", (d,)))
        for name in ("wq", "wk", "wv", "wo"):
            out += [(p + f"mixer.{name}.weight", (d, d)), (p + f"mixer.{name}.bias", (d,))]
        out += [(p + "ln2.weight", (d,)), (p + "ln2.bias", (d,)),
                (p + "ffn.fc1.weight", (f, d)), (p + "ffn.fc1.bias", (f,)),
                (p + "ffn.fc2.weight", (d, f)), (p + "ffn.fc2.bias", (d,))]
    return out + [("ln_f.weight", (d,)), ("ln_f.bias", (d,))]


def init_parameters_(model, seed):
    """Initial values by the rules of core/model/parameter_init.cpp (not its random stream): LayerNorm
    1 and 0, q0, the mark table and the timestep table N(0, 1), a weight (out, in) and its bias
    U(-1/sqrt(in), 1/sqrt(in))."""
    generator = torch.Generator().manual_seed(seed)
    fan_in = {}
    with torch.no_grad():
        for name, shape in model.layout():
            p = model.get_parameter(name)
            leaf = name.rsplit(".", 1)[-1]
            owner = name.rsplit(".", 1)[0]
            if owner.endswith(("ln1", "ln2", "ln_f", "embed_ln")):
                p.fill_(1.0 if leaf == "weight" else 0.0)
            elif leaf == "q0" or name in ("mark_embed.weight", "embed_timestep.weight"):
                p.copy_(torch.randn(shape, generator=generator, dtype=torch.float64))
            else:
                if leaf == "weight":
                    fan_in[owner] = shape[-1]
                bound = 1.0 / math.sqrt(fan_in[owner])
                p.copy_((torch.rand(shape, generator=generator, dtype=torch.float64) * 2 - 1) * bound)
    return model


class ForecastModel(nn.Module):
    """The forecaster: (B, T, C) windows in, (B, horizon, K) forecasts out, in the window's units; K is
    C, or 1 for features MS, whose forecast goes back with the target's own window statistics."""

    task = "forecast"

    def __init__(self, config: ForecastConfig):
        super().__init__()
        config.validate()
        self.config = config
        d = config.d_model
        self.embed = nn.Linear(config.channels, d)
        self.blocks = nn.ModuleList(Block(config) for _ in range(config.layers))
        self.ln_f = nn.LayerNorm(d, eps=LAYER_NORM_EPS)
        self.head = nn.Linear(d, config.horizon * config.outputs())
        self.register_buffer("pe", positional_encoding(config.seq_len, d), persistent=False)

    def layout(self):
        c = self.config
        d, ch, out = c.d_model, c.channels, c.horizon * c.outputs()
        return ([("embed.weight", (d, ch)), ("embed.bias", (d,))] + backbone_layout(c) +
                [("head.weight", (out, d)), ("head.bias", (out,))])

    def forward(self, x):
        c = self.config
        mean = x.mean(dim=1, keepdim=True)
        sigma = torch.sqrt(((x - mean) ** 2).mean(dim=1, keepdim=True) + INSTANCE_NORM_EPS)
        h = self.embed((x - mean) / sigma) + self.pe[: x.shape[1]].to(x.dtype)
        for block in self.blocks:
            h = block(h)
        y = self.head(self.ln_f(h[:, -1])).view(-1, c.horizon, c.outputs())
        if c.target_channel >= 0:
            t = c.target_channel
            return y * sigma[..., t:t + 1] + mean[..., t:t + 1]
        return y * sigma + mean


def event_features(times, origin, features, config: EventConfig):
    """(n, C_in) float64 inputs and (n,) log-gap targets of one window (core/events/event_features.hpp)."""
    times = np.asarray(times, dtype=np.float64)
    previous = np.concatenate([[origin], times[:-1]])
    gaps = times - previous
    s = config.time_scale
    columns = [np.log(gaps / s + MIN_SCALED_GAP)]
    turns = (times - origin) / s
    for f in range(config.time_frequencies):
        angle = 2 * math.pi * turns / math.ldexp(1.0, f)
        columns += [np.sin(angle), np.cos(angle)]
    if config.feature:
        columns.append(np.asarray(features, dtype=np.float64))
    return np.stack(columns, axis=1), np.log(np.maximum(gaps / s, MIN_SCALED_GAP))


def bounded_log_scale(rho):
    """b tanh(rho / b), b = LOG_SCALE_MAX for rho >= 0 and -LOG_SCALE_MIN below."""
    b = torch.where(rho >= 0, torch.full_like(rho, LOG_SCALE_MAX), torch.full_like(rho, -LOG_SCALE_MIN))
    return b * torch.tanh(rho / b)


class EventModel(nn.Module):
    """The temporal point process of core/events/event_model.hpp on the same blocks."""

    task = "events"

    def __init__(self, config: EventConfig):
        super().__init__()
        config.validate()
        self.config = config
        d = config.d_model
        self.embed = nn.Linear(config.input_features(), d)
        if config.marks > 0:
            self.mark_embed = nn.Embedding(config.marks, d)
        self.blocks = nn.ModuleList(Block(config) for _ in range(config.layers))
        self.ln_f = nn.LayerNorm(d, eps=LAYER_NORM_EPS)
        self.time_head = nn.Linear(d, 3 * config.mixture_components)
        if config.marks > 0:
            self.mark_head = nn.Linear(d, config.marks)
        self.register_buffer("pe", positional_encoding(config.window, d), persistent=False)

    def layout(self):
        c = self.config
        d, k, m = c.d_model, 3 * c.mixture_components, c.marks
        out = [("embed.weight", (d, c.input_features())), ("embed.bias", (d,))]
        if m > 0:
            out.append(("mark_embed.weight", (m, d)))
        out += backbone_layout(c) + [("time_head.weight", (k, d)), ("time_head.bias", (k,))]
        if m > 0:
            out += [("mark_head.weight", (m, d)), ("mark_head.bias", (m,))]
        return out

    def forward(self, x, marks=None):
        """x (B, n, C_in) features, marks (B, n) long -> time head (B, n, 3K), mark logits (B, n, M) or None."""
        h = self.embed(x)
        if self.config.marks > 0:
            h = h + self.mark_embed(marks)
        h = h + self.pe[: x.shape[1]].to(x.dtype)
        for block in self.blocks:
            h = block(h)
        h = self.ln_f(h)
        return self.time_head(h), (self.mark_head(h) if self.config.marks > 0 else None)

    def loss(self, time_out, mark_out, log_gap, marks=None):
        """Mean over windows of each window's mean over predictions of time NLL + mark NLL
        (event_loss: position i predicts event i + 1)."""
        k = self.config.mixture_components
        raw = time_out[:, :-1]
        y = log_gap[:, 1:]
        log_sigma = bounded_log_scale(raw[..., 2 * k:])
        z = (y.unsqueeze(-1) - raw[..., k:2 * k]) / torch.exp(log_sigma)
        log_joint = (torch.log_softmax(raw[..., :k], dim=-1) - 0.5 * z * z - log_sigma
                     - 0.5 * math.log(2 * math.pi))
        nll = y - torch.logsumexp(log_joint, dim=-1)  # the density of the gap, not of its log
        if mark_out is not None:
            nll = nll + F.cross_entropy(mark_out[:, :-1].transpose(1, 2), marks[:, 1:], reduction="none")
        return nll.mean(dim=1).mean()


POOLINGS = ("mean", "last")
MOST_MEMBERS = 32  # ClassifierConfig::kMostMembers


@dataclass
class ClassifierConfig(BackboneConfig):
    """core/classify/classifier_config.hpp: seq_len is the longest series the model takes, channels the
    values per step, classes K."""
    seq_len: int = 96
    channels: int = 1
    classes: int = 2
    pooling: str = "mean"
    instance_norm: bool = False
    label_smoothing: float = 0.0
    augmentation: str = "none"  # of the training cases (core/classify/augmentation.hpp); the twin trains without
    members: int = 1  # an ensemble of this many classifiers, their class probabilities averaged

    def __post_init__(self):
        self.label_smoothing = float(self.label_smoothing)

    def validate(self):
        if not 1 <= self.channels <= 4096:  # ModelConfig::validate's bound
            raise ValueError(f"channels must be between 1 and 4096, got {self.channels}")
        super().validate()
        if not 2 <= self.classes <= 1 << 16:
            raise ValueError(f"classes must be between 2 and {1 << 16}, got {self.classes}")
        if self.pooling not in POOLINGS:
            raise ValueError(f"pooling must be mean or last, got {self.pooling}")
        if not (math.isfinite(self.label_smoothing) and 0 <= self.label_smoothing < 1):
            raise ValueError(f"label_smoothing must be at least 0 and below 1, got {self.label_smoothing:g}")
        if not 1 <= self.members <= MOST_MEMBERS:
            raise ValueError(f"an ensemble has 1 to {MOST_MEMBERS} members, got {self.members}")


def classifier_normalize(x, lengths, instance_norm):
    """The input as the embedding reads it (classifier_normalize_input), for a padded batch: x (B, T, C)
    with NaN where a value is missing, lengths (B,) the steps of each case. Rows at or past a case's length
    are padding, ignored and set to 0, like every missing value; with instance_norm each channel is
    standardized over its present values (biased variance + 1e-5 under the root), a channel with none
    left at 0. The statistics are data: no gradient flows through them."""
    rows = torch.arange(x.shape[1], device=x.device)
    present = ~torch.isnan(x) & (rows[None, :, None] < lengths[:, None, None])
    values = torch.where(present, x, torch.zeros_like(x))
    if not instance_norm:
        return values
    with torch.no_grad():
        count = present.sum(dim=1, keepdim=True).to(x.dtype)
        has_values = count > 0
        safe = torch.where(has_values, count, torch.ones_like(count))
        mean = torch.where(has_values, values.sum(dim=1, keepdim=True) / safe, torch.zeros_like(count))
        squares = torch.where(present, (values - mean) ** 2, torch.zeros_like(x)).sum(dim=1, keepdim=True)
        sigma = torch.where(has_values, torch.sqrt(squares / safe + INSTANCE_NORM_EPS), torch.ones_like(count))
    return torch.where(present, (values - mean) / sigma, torch.zeros_like(x))


class ClassifierModel(nn.Module):
    """The classifier of core/classify/classifier_model.hpp (docs/classification-model.md): the
    forecaster's blocks, pooled (mean over the steps, or the last step), ln_f, then a head to K logits."""

    task = "classify"

    def __init__(self, config: ClassifierConfig):
        super().__init__()
        config.validate()
        if config.members != 1:
            raise ValueError(f"a ClassifierModel is one classifier; an ensemble of {config.members} is a "
                             "ClassifierEnsemble (classifier_model builds either)")
        self.config = config
        d = config.d_model
        self.embed = nn.Linear(config.channels, d)
        self.blocks = nn.ModuleList(Block(config) for _ in range(config.layers))
        self.ln_f = nn.LayerNorm(d, eps=LAYER_NORM_EPS)
        self.head = nn.Linear(d, config.classes)
        self.register_buffer("pe", positional_encoding(config.seq_len, d), persistent=False)

    def layout(self):
        c = self.config
        d = c.d_model
        return ([("embed.weight", (d, c.channels)), ("embed.bias", (d,))] + backbone_layout(c) +
                [("head.weight", (c.classes, d)), ("head.bias", (c.classes,))])

    def forward(self, x, lengths=None):
        """x (B, T, C), T <= seq_len, NaN where missing; lengths (B,) long, each 1..T (default T):
        the logits (B, K). Rows past a case's length are padding and cannot change its logits."""
        b, t, _ = x.shape
        if not 1 <= t <= self.config.seq_len:
            raise ValueError(f"the series has {t} time steps; the model takes 1 to {self.config.seq_len} (its seq_len)")
        if lengths is None:
            lengths = torch.full((b,), t, dtype=torch.long, device=x.device)
        lengths = lengths.to(device=x.device, dtype=torch.long)
        if bool(((lengths < 1) | (lengths > t)).any()):
            raise ValueError(f"every length must be from 1 to {t}")
        h = self.embed(classifier_normalize(x, lengths, self.config.instance_norm)) + self.pe[:t].to(x.dtype)
        for block in self.blocks:
            h = block(h)  # causal: row i sees rows 0..i only, so the padding after a case stays out of it
        if self.config.pooling == "mean":
            steps = (torch.arange(t, device=x.device)[None, :] < lengths[:, None]).to(h.dtype)
            pooled = (h * steps.unsqueeze(-1)).sum(dim=1) / lengths.to(h.dtype).unsqueeze(-1)
        else:
            pooled = h[torch.arange(b, device=x.device), lengths - 1]
        return self.head(self.ln_f(pooled))

    def loss(self, logits, labels):
        """Mean over the cases of the cross-entropy with the config's label smoothing (classifier_loss)."""
        return F.cross_entropy(logits, labels, label_smoothing=self.config.label_smoothing)

    @staticmethod
    def probabilities(logits):
        return torch.softmax(logits, dim=-1)


class ClassifierEnsemble(nn.Module):
    """An ensemble of classifiers (ClassifierConfig.members > 1, core/classify/classifier_config.hpp): the
    members side by side, their parameters named members.<m>.<name> (ParameterLayout::for_classifier);
    the class probabilities are the members' mean. forward gives the log of that mean, so that
    probabilities() of it is the mean itself."""

    task = "classify"

    def __init__(self, config: ClassifierConfig):
        super().__init__()
        config.validate()
        self.config = config
        member = replace(config, members=1)
        self.members = nn.ModuleList(ClassifierModel(member) for _ in range(config.members))

    def layout(self):
        return [(f"members.{m}.{name}", shape) for m, model in enumerate(self.members) for name, shape in model.layout()]

    def forward(self, x, lengths=None):
        log_p = torch.stack([torch.log_softmax(model(x, lengths), dim=-1) for model in self.members])
        return torch.logsumexp(log_p, dim=0) - math.log(len(self.members))

    probabilities = staticmethod(ClassifierModel.probabilities)


def classifier_model(config: ClassifierConfig):
    """The classifier a config describes: one ClassifierModel, or a ClassifierEnsemble of its members."""
    return ClassifierModel(config) if config.members == 1 else ClassifierEnsemble(config)
