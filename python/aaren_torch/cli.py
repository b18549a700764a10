"""python3 -m aaren_torch forecast|train: the command line that mirrors `aaren`; `forecast --task
classify` classifies the cases of a .ts file with a classification run."""
import argparse
import os
import sys

from .models import KINDS
from .run_folder import RunFolderError


def positive_whole(text):
    """--processes N: a whole number of 1 or more, else a usage error (exit 2) naming the value."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number of 1 or more, not '{text}'") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of 1 or more, not '{text}'")
    return value


def parser():
    from . import __version__
    top = argparse.ArgumentParser(prog="python3 -m aaren_torch",
                                  description="The PyTorch twin of Aaren Studio's models and run folders.")
    top.add_argument("--version", action="version", version=f"aaren_torch {__version__} (Aaren Studio)")
    commands = top.add_subparsers(dest="command", required=True)

    forecast = commands.add_parser("forecast", help="forecast with a run folder, as 'aaren forecast'")
    forecast.add_argument("--task", choices=["forecast", "classify"], default="forecast",
                          help="classify: the cases of a .ts file, written as case,label,predicted,p_<class>,...")
    forecast.add_argument("--run", required=True, help="run folder")
    forecast.add_argument("--data", required=True, help="the CSV file (a .ts file with --task classify)")
    which = forecast.add_mutually_exclusive_group()
    which.add_argument("--window", type=int, help="test window K (0-based, in time order), with the truth")
    which.add_argument("--last", action="store_true", help="past the end of the file (the default)")
    forecast.add_argument("--out", required=True, help="FILE.csv: date,step,channel,forecast,truth")
    forecast.add_argument("--device", default="cpu", help="cpu or cuda (default cpu)")

    train = commands.add_parser("train", help="train a forecaster (DDP under torchrun) or, with --task classify, a "
                                              "classifier, as 'aaren train'")
    train.add_argument("--task", choices=["forecast", "classify"], default="forecast")
    train.add_argument("--data", required=True, help="the CSV file (a labelled .ts file with --task classify)")
    train.add_argument("--out", required=True)
    train.add_argument("--columns", help="channels A,B,... (default: every column but the date)")
    train.add_argument("--target", default="")
    train.add_argument("--features", choices=["M", "S", "MS"], default="M",
                       help="M: every channel predicts every channel; S: the target alone predicts itself; "
                            "MS: every channel predicts the target (S and MS need --target)")
    train.add_argument("--date-column", dest="date_column", help="'' for none (default: detected)")
    train.add_argument("--decimal-mark", dest="decimal_mark", choices=[".", ","])
    train.add_argument("--interpolate", action="store_true")
    train.add_argument("--split", default="0.7/0.1/0.2")
    train.add_argument("--model", choices=list(KINDS), default="aaren")
    for name, default in (("seq-len", 96), ("horizon", 96), ("d-model", 64), ("heads", 4), ("layers", 2),
                          ("d-ff", 256), ("epochs", None), ("batch", None), ("patience", None),
                          ("steps-per-epoch", 0), ("seed", 1)):
        train.add_argument("--" + name, dest=name.replace("-", "_"), type=int, default=default)
    train.add_argument("--lr", type=float, default=1e-3)
    train.add_argument("--weight-decay", dest="weight_decay", type=float, default=0.01)
    train.add_argument("--schedule", choices=["cosine", "constant"], default="cosine")
    train.add_argument("--device", choices=["cpu", "cuda", "auto"], default="cpu")
    train.add_argument("--threads", type=int, default=0, help="CPU threads of each process (0: torch's default)")
    # Options of `aaren train` the twin takes only at the value that means what it does (NOT_HERE).
    train.add_argument("--seasonal-period", dest="seasonal_period")
    train.add_argument("--processes", type=positive_whole, default=1,
                       help="DDP workers to start (gloo on CPUs, nccl on GPUs); default 1, in this process")
    classify = train.add_argument_group("--task classify")
    classify.add_argument("--test", help="labelled cases to report on (.ts)")
    classify.add_argument("--val-fraction", dest="val_fraction", type=float, default=0.2)
    classify.add_argument("--pooling", choices=["mean", "last"], default="mean")
    classify.add_argument("--instance-norm", dest="instance_norm", action="store_true")
    classify.add_argument("--label-smoothing", dest="label_smoothing", type=float, default=0.0)
    classify.add_argument("--cv-folds", dest="cv_folds")
    classify.add_argument("--ensemble")
    classify.add_argument("--augment")
    return top


# `aaren train` options the twin does not do, with the value that asks for what it does instead;
# any other value is refused naming the option (exit 2).
NOT_HERE = {
    "seasonal_period": ("--seasonal-period", None, "the twin prints no baselines; the app's `aaren train` does"),
    "cv_folds": ("--cv-folds", "0", "the twin chooses the epoch count on a held-out part only (--cv-folds 0); "
                                    "the app's `aaren train` cross-validates"),
    "ensemble": ("--ensemble", "1", "the twin trains one classifier (--ensemble 1); the app's `aaren train` "
                                    "trains ensembles"),
    "augment": ("--augment", "none", "the twin does not augment (--augment none); the app's `aaren train` does"),
}


def refusal(args):
    """The message for an `aaren train` option the twin cannot honour as given, or None."""
    for attribute, (option, honoured, reason) in NOT_HERE.items():
        value = getattr(args, attribute, None)
        if value is not None and value != honoured:
            return f"{option} {value} is not supported by the twin: {reason}"
    return None


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parser().parse_args(argv)
    refused = refusal(args) if args.command == "train" else None
    if refused:
        print(f"aaren_torch train: error: {refused}", file=sys.stderr)
        return 2
    if args.command == "train" and args.threads > 0:
        import torch
        torch.set_num_threads(args.threads)
    if args.command == "train" and args.processes > 1:
        if "WORLD_SIZE" in os.environ:
            print("aaren_torch: error: --processes starts its own workers; under torchrun leave it out",
                  file=sys.stderr)
            return 2
        from .launcher import launch, without_processes
        return launch(args.processes, without_processes(argv))
    try:
        if args.command == "forecast" and args.task == "classify":
            if args.window is not None or args.last:
                raise ValueError("--window and --last do not apply to --task classify")
            from .classify import classify_command
            classify_command(args)
        elif args.command == "forecast":
            from .forecast import forecast_command
            forecast_command(args)
        elif args.task == "classify":
            # The app's defaults for a classifier: --epochs 100 --batch 16 --patience 20.
            for name, default in (("epochs", 100), ("batch", 16), ("patience", 20)):
                setattr(args, name, default if getattr(args, name) is None else getattr(args, name))
            from .train_classify import train_classify_command
            return train_classify_command(args)
        else:
            for name, default in (("epochs", 10), ("batch", 32), ("patience", 3)):
                setattr(args, name, default if getattr(args, name) is None else getattr(args, name))
            from .train import train_command
            train_command(args)
    except (RunFolderError, ValueError, OSError, RuntimeError) as error:
        print(f"aaren_torch: error: {error}", file=sys.stderr)
        return 1
    return 0
