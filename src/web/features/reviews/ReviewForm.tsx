import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import {
  REVIEW_MAX_STARS,
  REVIEW_TEXT_MAX_LENGTH,
  reviewWriteSchema,
  type Review,
  type ReviewWriteResponse,
} from '../../../shared/api/reviews';
import { fieldError } from '../../lib/api';
import { errorText } from '../../lib/query';
import { refreshReviews, saveReview } from './reviewsApi';

interface ReviewFormValues {
  appid: string;
  stars: string;
  text: string;
}

const STAR_VALUES = Array.from({ length: REVIEW_MAX_STARS }, (_, i) => i + 1);

/**
 * Writing or editing one's review: 1-5 stars as radio buttons (arrow keys move between them, each
 * named "n stars") and the text, checked by the contract the server applies. A refusal shows beside
 * its field, or above the buttons.
 */
export function ReviewForm({
  appid,
  own,
  onDone,
  onCancel,
}: {
  appid: string;
  /** the review being edited, or null for a new one */
  own: Review | null;
  onDone(answer: ReviewWriteResponse): void;
  onCancel(): void;
}) {
  const id = useId();
  const client = useQueryClient();
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors },
  } = useForm<ReviewFormValues>({
    resolver: zodResolver(reviewWriteSchema) as never,
    defaultValues: { appid, stars: own ? String(own.stars) : '', text: own?.text ?? '' },
    shouldFocusError: true,
  });
  const chosen = Number(useWatch({ control, name: 'stars' }) || 0);
  const save = useMutation({
    mutationFn: (values: ReviewFormValues) =>
      saveReview(own ? 'edit' : 'add', { appid, stars: Number(values.stars), text: values.text }),
    onSuccess: async (answer) => {
      await refreshReviews(client, appid);
      onDone(answer);
    },
    onError: (error) => {
      const field = fieldError(error);
      if (field && (field.field === 'stars' || field.field === 'text'))
        setError(field.field, { message: field.reason });
      else setError('root', { message: errorText(error) });
    },
  });

  return (
    <form
      className="reviews-form"
      noValidate
      aria-labelledby={`${id}-title`}
      onSubmit={handleSubmit((values) => save.mutate(values))}
    >
      <h3 id={`${id}-title`} className="reviews-form__title">
        {own ? 'Edit your review' : 'Write a review'}
      </h3>
      <fieldset
        className="reviews-stars-input"
        aria-describedby={errors.stars ? `${id}-stars-error` : undefined}
      >
        <legend>Your rating</legend>
        {STAR_VALUES.map((value) => (
          <label
            key={value}
            className={`reviews-stars-input__star${value <= chosen ? ' reviews-stars-input__star--on' : ''}`}
          >
            <input type="radio" className="visually-hidden" value={String(value)} {...register('stars')} />
            <span aria-hidden="true">★</span>
            <span className="visually-hidden">{value === 1 ? '1 star' : `${value} stars`}</span>
          </label>
        ))}
      </fieldset>
      {errors.stars && (
        <p id={`${id}-stars-error`} className="reviews-form__error" role="alert">
          Choose from 1 to 5 stars.
        </p>
      )}
      <label className="reviews-form__label" htmlFor={`${id}-text`}>
        Your review
      </label>
      <textarea
        id={`${id}-text`}
        className="reviews-form__text"
        rows={4}
        maxLength={REVIEW_TEXT_MAX_LENGTH}
        placeholder="What was it like?"
        aria-invalid={errors.text ? true : undefined}
        {...register('text')}
      />
      {errors.text && (
        <p className="reviews-form__error" role="alert">
          {errors.text.message}
        </p>
      )}
      {errors.root && (
        <p className="reviews-form__error" role="alert">
          {errors.root.message}
        </p>
      )}
      <div className="reviews-form__buttons">
        <button type="submit" className="xp-button xp-button--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : own ? 'Save review' : 'Post review'}
        </button>
        <button type="button" className="xp-button" onClick={onCancel} disabled={save.isPending}>
          Cancel
        </button>
      </div>
    </form>
  );
}
