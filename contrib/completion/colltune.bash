# SPDX-License-Identifier: BSD-3-Clause
# bash completion for colltune and collbench                 -*- shell-script -*-
#
# Installed twice, as completions/colltune and completions/collbench, since
# bash-completion loads a file by the command's name; either defines both.
#
# The word lists come from the tools' own --help, read once per shell and
# kept in variables (as git's completion keeps its lists): the installed
# binary is the one source, so a new subcommand or option completes without
# editing this file, and a TAB after the first costs no process.

# The caches _colltune_help, _collbench_help and _colltune_help_SUB.
# shellcheck disable=SC2154

# Runs "$@" once per shell and caches its output in the variable $1.
_colltune_cached()
{
    local var=$1
    shift
    if [[ -z ${!var+set} ]]; then
        printf -v "$var" '%s' "$("$@" 2>/dev/null)"
    fi
}

# Long (and short) option names from a --help text on stdin: only the
# lines that start with an option, not options named in the prose.
_colltune_help_opts()
{
    sed -n 's/^ \{1,\}\(-[A-Za-z0-9]\), \(--[A-Za-z0-9][A-Za-z0-9_-]*\).*/\1 \2/p
            s/^ \{1,\}\(--[A-Za-z0-9][A-Za-z0-9_-]*\).*/\1/p'
}

# The values an option's help line lists as "a,b,c or all" (collbench's
# -C, -o, -d), "all" included.
_colltune_help_values()
{
    sed -n "s/^ *\\(-[A-Za-z0-9], \\)\\{0,1\\}$1 [A-Z]* *\\([a-z0-9_]*\\(,[a-z0-9_]*\\)*\\) or all.*/\\2,all/p" |
        tr ',' ' '
}

# COMPREPLY from the words in $1 that start with the current word's part
# after its last comma (a LIST option takes a,b,c).
_colltune_list_reply()
{
    local cur=$2 head=''
    if [[ $cur == *,* ]]; then
        head=${cur%,*},
        cur=${cur##*,}
    fi
    local w
    COMPREPLY=()
    for w in $(compgen -W "$1" -- "$cur"); do
        COMPREPLY+=("$head$w")
    done
    [[ -n $head ]] && compopt -o nospace 2>/dev/null
}

# The collbench to read: the one beside colltune (an installed pair, or a
# build tree's src/), else PATH's.
_colltune_collbench()
{
    local self dir
    self=$(type -P -- "$1" 2>/dev/null) || self=
    dir=${self%/*}
    if [[ -n $self && -x $dir/collbench ]]; then
        printf '%s\n' "$dir/collbench"
    elif [[ -n $self && -x $dir/../src/collbench ]]; then
        printf '%s\n' "$dir/../src/collbench"
    else
        printf '%s\n' collbench
    fi
}

# Completes the word cur after prev as collbench's arguments ($1: collbench).
_collbench_word()
{
    local bench=$1 cur=$2 prev=$3
    _colltune_cached _collbench_help "$bench" --help
    case $prev in
    -C | --collectives | -o | --op | -d | --datatype)
        local long
        case $prev in
        -C | --collectives) long=--collectives ;;
        -o | --op) long=--op ;;
        *) long=--datatype ;;
        esac
        _colltune_list_reply "$(_colltune_help_values "$long" <<<"$_collbench_help")" "$cur"
        return
        ;;
    --backend)
        local b
        b=$(sed -n 's/^Backends: \([a-z, ]*\)\..*/\1/p' <<<"$_collbench_help" | tr -d ',')
        COMPREPLY=($(compgen -W "$b" -- "$cur"))
        return
        ;;
    --sync)
        COMPREPLY=($(compgen -W "window barrier batch" -- "$cur"))
        return
        ;;
    --csv | --json | --nccl-lib | --cudart-lib)
        COMPREPLY=($(compgen -f -- "$cur"))
        compopt -o filenames 2>/dev/null
        return
        ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_colltune_help_opts <<<"$_collbench_help")" -- "$cur"))
    fi
}

_collbench()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=''
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    _collbench_word "${COMP_WORDS[0]}" "$cur" "$prev"
}

# Installed search spaces (NAME for --space NAME): PREFIX/share/colltune/
# spaces beside PREFIX/bin/colltune, or a build tree's tuner/spaces.
_colltune_spaces()
{
    local self dir d f
    self=$(type -P -- "$1" 2>/dev/null) || return
    dir=${self%/*}
    for d in "$dir/../share/colltune/spaces" "$dir/spaces"; do
        [[ -d $d ]] || continue
        for f in "$d"/*.ini; do
            [[ -f $f ]] || continue
            f=${f##*/}
            printf '%s\n' "${f%.ini}"
        done
        return
    done
}

_colltune()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev='' tool=${COMP_WORDS[0]}
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()

    _colltune_cached _colltune_help "$tool" --help
    local cmds
    cmds=$(sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\)  .*/\1/p' <<<"$_colltune_help" | tr '\n' ' ')

    # The subcommand, and whether a -- before the cursor hands the rest to
    # collbench.
    local i sub='' dashdash=''
    for ((i = 1; i < COMP_CWORD; i++)); do
        if [[ -z $sub && " $cmds " == *" ${COMP_WORDS[i]} "* ]]; then
            sub=${COMP_WORDS[i]}
        elif [[ -n $sub && ${COMP_WORDS[i]} == -- ]]; then
            dashdash=1
        fi
    done
    if [[ -z $sub ]]; then
        COMPREPLY=($(compgen -W "$cmds --help --version" -- "$cur"))
        return
    fi
    if [[ -n $dashdash ]]; then
        _collbench_word "$(_colltune_collbench "$tool")" "$cur" "$prev"
        return
    fi

    case $prev in
    --space)
        COMPREPLY=($(compgen -W "$(_colltune_spaces "$tool")" -- "$cur") $(compgen -f -- "$cur"))
        compopt -o filenames 2>/dev/null
        return
        ;;
    --out)
        # sbatch's --out is the script it writes; everyone else's a directory.
        if [[ $sub == sbatch ]]; then
            COMPREPLY=($(compgen -f -- "$cur"))
        else
            COMPREPLY=($(compgen -d -- "$cur"))
        fi
        compopt -o filenames 2>/dev/null
        return
        ;;
    --collectives)
        local bench
        bench=$(_colltune_collbench "$tool")
        _colltune_cached _collbench_help "$bench" --help
        _colltune_list_reply "$(_colltune_help_values --collectives <<<"$_collbench_help")" "$cur"
        return
        ;;
    --strategy)
        COMPREPLY=($(compgen -W "exhaustive random halving" -- "$cur"))
        return
        ;;
    --objective)
        COMPREPLY=($(compgen -W "max avg" -- "$cur"))
        return
        ;;
    --hostfile | --weights | --collbench | --report | --md | --json | --csv | --plots-dir | --gnuplot)
        COMPREPLY=($(compgen -f -- "$cur"))
        compopt -o filenames 2>/dev/null
        return
        ;;
    esac

    if [[ $cur == -* ]]; then
        local var=_colltune_help_${sub//[^A-Za-z0-9]/_}
        _colltune_cached "$var" "$tool" "$sub" --help
        COMPREPLY=($(compgen -W "$(_colltune_help_opts <<<"${!var}") --help" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
        compopt -o filenames 2>/dev/null
    fi
}

complete -F _colltune colltune
complete -F _collbench collbench
